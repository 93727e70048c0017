"""The MCP face of memorybank: tool table (`tools`), surface modes (`surface`), and the server (`app`).

Only `app` imports the MCP SDK; the CLI imports it when serving and nowhere else.
"""
