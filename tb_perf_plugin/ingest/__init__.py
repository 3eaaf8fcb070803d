"""Parsers, one per artifact kind, from files to typed columnar tables."""
