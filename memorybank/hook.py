"""Stop hook entry point (`mcp-memorybank-hook`); built in its own issue, exits 0 until then."""

import sys


def main() -> None:
    """Exit quietly: the hook must never fail the agent."""
    sys.exit(0)
