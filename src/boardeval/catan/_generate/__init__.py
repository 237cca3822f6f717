"""Catan board generators (private): random, anneal, cp, tournament, and the fairness dial.

Modules: ``common`` (result type, exact integer energy, swap state), ``random``, ``anneal`` (ours and the
catan-forge port, sharing one Metropolis step), ``cp`` (CP-SAT: satisfy, optimum, count, and the one CP-SAT
solution counter), ``tournament`` (fewest-swap repair), ``fairness`` (the dial and :func:`generate`).

The package is private (httpx style): the function :func:`boardeval.catan.generate` would otherwise hide a
``boardeval.catan.generate`` subpackage. Import the public names from :mod:`boardeval.catan`; tests and
benchmarks may import these modules. This ``__init__`` stays empty so the layering (common < methods <
fairness) holds.
"""
