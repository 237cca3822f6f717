"""Catan board generators (issue 4): random, anneal, cp, tournament, and the fairness dial.

Modules: ``common`` (result type, exact integer energy, swap state), ``random``, ``anneal`` (ours and the
catan-forge port), ``cp`` (CP-SAT: satisfy, optimum, count), ``tournament`` (fewest-swap repair),
``fairness`` (the dial and :func:`generate`). Import from :mod:`boardeval.catan`, which re-exports the
public names; this package ``__init__`` stays empty so the layering (common < methods < fairness) holds.
"""
