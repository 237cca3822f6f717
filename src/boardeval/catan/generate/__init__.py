"""Catan board generators."""
