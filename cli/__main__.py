from polydeukes.cli import main

main()
