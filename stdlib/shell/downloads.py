"""Effect-model readers for the downloaders, curl and wget: the files they write are named by
the URL (or by the server), not by a word of the line.

`cd ci && curl -O https://example.com/gate.sh` writes `ci/gate.sh` though no word spells it;
before these rows both programs had none, so such a line passed unless a word spelled an entry.
A name taken from a URL is an `Extra(WRITE)` below the download directory; a name the line
cannot know (the server's, `curl -J`, `wget --content-disposition`, a URL of unknown value or
with curl's own `{a,b}`/`[1-9]` globbing, `wget -i FILE`) or a whole tree (`wget -r`/`-m`/
`-p`, `-x`) is a tree write of that directory: it breaks when the directory holds an entry.
"""

from __future__ import annotations

from collections.abc import Sequence

from polydeukes.stdlib.shell.effects import DATA, READ, WRITE, Effects, Env, Extra, Item, Model
from polydeukes.stdlib.shell.expansion import Arg, escape_pattern
from polydeukes.vm.sre import LazyPattern


def url_names(url: str) -> list[str]:
    """The file names a URL's last path segment gives (`https://h/a/gate.sh?x=1` → `gate.sh`,
    and `gate.sh?x=1`, which wget keeps); empty when the URL names no file (`https://h/`)."""
    rest = url.split("://", 1)[1] if "://" in url else url
    rest = rest.split("#", 1)[0]
    path, _, query = rest.partition("?")
    if "/" not in path:
        return []  # only a host
    name = path.rsplit("/", 1)[1]
    if name in ("", ".", ".."):
        return []
    return [name, f"{name}?{query}"] if query else [name]


def _under(directory: str, name: str) -> str:
    return name if directory in ("", ".") else directory.rstrip("/") + "/" + name


def _words(args: Sequence[Arg], takes_argument: frozenset[str]):
    """Read an argv as curl and wget do: yields `(index, option, value, value_index, whole)` for
    each option (a bundle `-sSo F` yields `-s`, `-S` and `-o` with `F`; `value` is None for a flag,
    `whole` says the value is a word of its own) and `(index, None, word, index, True)` for an
    operand. `--` ends the options."""
    k = 0
    n = len(args)
    options_done = False
    while k < n:
        t = args[k].text
        if options_done or not t.startswith("-") or t == "-":
            yield k, None, t, k, True
        elif t == "--":
            options_done = True
        elif t.startswith("--"):
            key, eq, attached = t.partition("=")
            if key in takes_argument and not eq and k + 1 < n:
                yield k, key, args[k + 1].text, k + 1, True
                k += 1
            else:
                yield k, key, attached if eq else None, k, False
        else:
            for pos in range(1, len(t)):
                option = "-" + t[pos]
                if option in takes_argument:
                    if pos + 1 < len(t):
                        yield k, option, t[pos + 1 :], k, False
                    elif k + 1 < n:
                        yield k, option, args[k + 1].text, k + 1, True
                        k += 1
                    else:
                        yield k, option, "", k, False
                    break
                yield k, option, None, k, False
        k += 1


def _opaque_option(args: Sequence[Arg]) -> str | None:
    if any(a.opaque and a.text.startswith("-") for a in args):
        return "a word of unknown value stands where an option may be"
    return None


def _flag_item(items: list[Item], seen: set[int], args: Sequence[Arg], index: int) -> None:
    """The word of a flag (once per word: a bundle yields several flags from one word)."""
    if index not in seen:
        items.append(Item(index, args[index].text, DATA))
    seen.add(index)


def _downloads(args: Sequence[Arg], urls: Sequence[int], directory: str, names_of) -> list[Extra]:
    """What downloading `urls` into `directory` writes: each name `names_of(url)` gives, or the
    directory's tree when it gives none (the line cannot know the name)."""
    extra: list[Extra] = []
    for index in urls:
        names = names_of(args[index])
        if names:
            extra.extend(Extra(WRITE, path=_under(directory, name), rule="download") for name in names)
        else:
            extra.append(Extra(WRITE, path=directory, tree=True, rule="download"))
    return extra


def _option_items(args: Sequence[Arg], index: int, option: str, value: str, value_index: int,
                  whole: bool, role: str) -> list[Item]:
    items = [Item(index, args[index].text, DATA)]
    if whole:
        items.append(Item(value_index, value, role, True, option))
    else:
        items.append(Item(index, value, role, False, option))
    return items


# -- curl --------------------------------------------------------------------------------------

# Options that take an argument, and the role of that argument (`data` unless listed).
_CURL_ARGUMENT = frozenset(
    "-o -T -d -H -u -x -X -A -e -b -c -D -F -K -m -r -w -E -C -Y -y -z -P -Q -t -U".split()
    + ("--output --upload-file --data --data-raw --data-binary --data-ascii --data-urlencode "
       "--header --user --proxy --request --user-agent --referer --cookie --cookie-jar "
       "--dump-header --form --form-string --config --max-time --range --write-out --cert --key "
       "--cacert --capath --continue-at --output-dir --connect-timeout --retry --retry-delay "
       "--retry-max-time --limit-rate --max-filesize --resolve --connect-to --interface --trace "
       "--trace-ascii --stderr --url --json --etag-save --etag-compare --hsts --alt-svc --libcurl "
       "--proxy-user --oauth2-bearer --expect100-timeout --speed-limit --speed-time --time-cond "
       "--unix-socket --abstract-unix-socket --variable --ciphers --pinnedpubkey --netrc-file "
       "--create-file-mode --parallel-max --mail-from --mail-rcpt --quote --telnet-option "
       "--local-port --keepalive-time --dns-servers --doh-url --proto --proto-redir").split())
_CURL_WRITES = frozenset({"-o", "--output", "-c", "--cookie-jar", "-D", "--dump-header", "--trace",
                          "--trace-ascii", "--stderr", "--etag-save", "--hsts", "--alt-svc", "--libcurl"})
_CURL_READS = frozenset({"-T", "--upload-file", "-K", "--config", "--netrc-file", "--cacert", "--cert",
                         "--key", "--etag-compare"})


def curl(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """curl writes stdout unless told: `-o FILE` writes FILE (`-` is stdout), `-O` /
    `--remote-name-all` write the URL's file name in the directory (`--output-dir`), `-J` the
    server's name; a `-K` config file may set any of these (unproven here; scripts.py reads
    its text as code); `-o` with `#N` over a URL glob is a template (`_templates`); `-d @file`,
    `-F x=@file` and `-T` read files."""
    items: list[Item] = []
    unproven = _opaque_option(args)
    remote_name = server_name = False
    globbing = True  # curl expands `{a,b}` and `[1-9]` in URLs itself, unless -g
    output_dir = "."
    urls: list[int] = []
    seen: set[int] = set()
    for index, option, value, value_index, whole in _words(args, _CURL_ARGUMENT):
        if option is None:
            urls.append(index)
            items.append(Item(index, value, DATA))
            continue
        if option in ("-O", "--remote-name", "--remote-name-all"):
            remote_name = True
        elif option in ("-J", "--remote-header-name"):
            server_name = True
        elif option in ("-g", "--globoff"):
            globbing = False
        if value is None:
            _flag_item(items, seen, args, index)
            continue
        role = WRITE if option in _CURL_WRITES and value != "-" else READ if option in _CURL_READS else DATA
        if option in ("-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json") \
                and value.startswith("@"):
            value, role = value[1:], READ
        elif option in ("-F", "--form") and ("=@" in value or "=<" in value):
            value, role = value.split("=", 1)[1][1:].split(";", 1)[0], READ
        if option == "--output-dir":
            output_dir = value
        elif option in ("-K", "--config"):
            unproven = "a config file may set any option"
        elif option == "--url":
            urls.append(value_index)
        items.extend(_option_items(args, index, option, value, value_index, whole, role))
        seen.add(index)
    extra: list[Extra] = []
    if remote_name or server_name:
        extra = _downloads(args, urls, output_dir, lambda url: [] if server_name or url.opaque or (
            globbing and any(c in url.text for c in "{[")) else url_names(url.text))
    if globbing and any(args[k].opaque or any(c in args[k].text for c in "{[") for k in urls):
        extra.extend(_templates(items, [args[k] for k in urls], output_dir))
    return Effects(tuple(items), tuple(extra), unproven)


_TEMPLATE = LazyPattern(r"#[0-9]")
_URL_GLOB = LazyPattern(r"\{[^}]*\}|\[[^]]*\]")


def _templates(items: Sequence[Item], urls: Sequence[Arg], output_dir: str) -> list[Extra]:
    """`curl URL{a,b} -o 'dir/#1'`: `#N` is the text the URL's Nth `{…}`/`[…]` glob matched:
    the output is the pattern with each `#N` any name (`dir/*`), or, when a glob's text holds a
    `/` (or a URL is of unknown value), anything below the template's fixed directory."""
    out: list[Extra] = []
    slashes = any(u.opaque or any("/" in m.group(0) for m in _URL_GLOB().finditer(u.text)) for u in urls)
    for it in items:
        if it.role != WRITE or it.option not in ("-o", "--output") or _TEMPLATE().search(it.text) is None:
            continue
        path = it.text if output_dir in (".", "") or it.text.startswith("/") else f"{output_dir.rstrip('/')}/{it.text}"
        if slashes:
            fixed = path[: _TEMPLATE().search(path).start()].rpartition("/")[0] or "."
            out.append(Extra(WRITE, path=fixed, tree=True, rule="download"))
        else:
            out.append(Extra(WRITE, path=path, pattern=_TEMPLATE().sub("*", escape_pattern(path)), rule="download"))
    return out


# -- wget --------------------------------------------------------------------------------------

_WGET_ARGUMENT = frozenset(
    "-O -o -a -P -i -B -t -T -w -Q -U -e -l -A -R -D -X -I".split()
    + ("--output-document --output-file --append-output --directory-prefix --input-file --base "
       "--tries --timeout --wait --quota --user-agent --execute --level --cut-dirs --accept "
       "--reject --domains --exclude-directories --include-directories --limit-rate --header "
       "--user --password --http-user --http-password --post-data --post-file --body-data "
       "--body-file --method --load-cookies --save-cookies --ca-certificate --certificate "
       "--private-key --config --referer --restrict-file-names --default-page --backups "
       "--waitretry --dns-timeout --connect-timeout --read-timeout --bind-address --proxy-user "
       "--proxy-password --accept-regex --reject-regex --regex-type --exclude-domains "
       "--follow-tags --ignore-tags --rejected-log --warc-file --hsts-file --progress "
       "--local-encoding --remote-encoding --secure-protocol --ca-directory").split())
_WGET_WRITES = frozenset({"-O", "--output-document", "-o", "--output-file", "-a", "--append-output",
                          "--save-cookies", "--rejected-log", "--warc-file", "--hsts-file"})
_WGET_READS = frozenset({"-i", "--input-file", "--post-file", "--body-file", "--load-cookies",
                         "--config", "--ca-certificate", "--certificate", "--private-key"})
# Options after which the names wget writes are not the URLs' last segments.
_WGET_TREES = frozenset({"-r", "--recursive", "-m", "--mirror", "-p", "--page-requisites", "-x",
                         "--force-directories", "--content-disposition", "--trust-server-names",
                         "-i", "--input-file", "-k", "--convert-links"})


def wget(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """wget writes each URL's file name (`index.html` for none) in the directory (`-P`), or the
    one file `-O` names (`-` is stdout); recursion, `-x`, server-chosen names and `-i` lists
    write names the line cannot know: a tree below the directory. `-e`/`--execute` runs a
    wgetrc command and `--config` reads one: unproven."""
    items: list[Item] = []
    unproven = _opaque_option(args)
    document: str | None = None
    prefix = "."
    tree = spider = False
    urls: list[int] = []
    seen: set[int] = set()
    for index, option, value, value_index, whole in _words(args, _WGET_ARGUMENT):
        if option is None:
            urls.append(index)
            items.append(Item(index, value, DATA))
            continue
        if option == "--spider":
            spider = True
        if option in _WGET_TREES:
            tree = True
        if value is None:
            _flag_item(items, seen, args, index)
            continue
        role = WRITE if option in _WGET_WRITES and value != "-" else READ if option in _WGET_READS else DATA
        if option in ("-O", "--output-document"):
            document = value
        elif option in ("-P", "--directory-prefix"):
            prefix = value
        elif option in ("-e", "--execute"):
            unproven = "a wgetrc command is run"
        elif option == "--config":
            unproven = "a config file may set any option"
        items.extend(_option_items(args, index, option, value, value_index, whole, role))
        seen.add(index)
    extra: list[Extra] = []
    if spider:
        pass  # checks the URLs, writes nothing
    elif tree:
        extra.append(Extra(WRITE, path=prefix, tree=True, rule="download"))
    elif document is None:
        extra = _downloads(args, urls, prefix,
                           lambda url: [] if url.opaque else (url_names(url.text) or ["index.html"]))
    return Effects(tuple(items), tuple(extra), unproven)


HANDLERS = {"curl": curl, "wget": wget}
