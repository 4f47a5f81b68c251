"""The command line: thin wrappers that parse arguments, call the library, render, and exit."""
