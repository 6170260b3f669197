"""The package version; the library's MAJOR.MINOR must match (checked at import)."""

__version__ = "0.7.0"
