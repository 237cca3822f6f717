"""The ``boardeval`` command line: a thin Typer layer over the public library."""
