"""memorybank: a governed markdown knowledge bank served to AI coding agents."""

__version__ = "0.1.0"
