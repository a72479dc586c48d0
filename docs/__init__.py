# polydeukes.docs: the Markdown pages beside this file, bundled for `pdks docs` (cli/docs.py).
# This marker makes docs/ a regular subpackage of the `polydeukes` package (api/): an editable
# install finds a subpackage without one only under a namespace parent.
