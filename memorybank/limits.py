"""Every cap on input and work, in one place (§16: every input has a bound).

README's Reliability section lists each constant here with its value; a test holds the two
together, so change a value here and the table there in the same commit.
"""

from __future__ import annotations

# -- what one document may hold before the index reads less of it -------------------------------
FRONTMATTER_MAX = 256 * 1024  # characters of one frontmatter block; past it, read line by line from its start
BODY_INDEX_MAX = 2 * 1024 * 1024  # bytes of one file; past it, only the frontmatter is indexed
LINKS_MAX = 10_000  # markdown links indexed per document; the rest are counted, not kept
ALIAS_EXPANSION_LIMIT = 100_000  # values YAML aliases may expand to in one header

# -- what a writer accepts -----------------------------------------------------------------------
NAME_MAX = 255  # bytes of one path component, as on Linux and macOS file systems
PATH_MAX = 1024  # bytes of a whole path inside the bank (and characters of one anchors item)
INPUT_LIMIT = 1 << 20  # bytes of a body, body_file or content_file
TITLE_MAX = 200  # characters of a title
PURPOSE_MAX = 500  # characters of a purpose
VALUE_MAX = 500  # characters of any other one-line frontmatter value
KEY_MAX = 120  # characters of one canonical_for / must_not_define key
LIST_MAX = 1_000  # items of one governed list (derived_from, canonical_for, must_not_define, anchors)

# -- what a caller may ask -----------------------------------------------------------------------
MAX_QUESTION = 1000  # characters of a route question, search query or prompt argument: a phrase, never a document
REQUEST_MAX = 8 << 20  # bytes of one JSON-RPC request line at the MCP server
HOOK_STDIN_MAX = 4 << 20  # bytes of a hook's stdin payload (Stop, prime, session-start); past it, skipped unread
GUARD_FILES_MAX = 10_000  # files one guard call checks
GUARD_FILE_BYTES_MAX = 2 * 1024 * 1024  # bytes of one file guard reads; larger files are skipped and named
GUARD_VIOLATIONS_MAX = 1_000  # violations one guard result lists; the rest are counted

# -- what import reads ---------------------------------------------------------------------------
IMPORT_FILES_MAX = 200  # files import reads from one rule folder (.cursor/rules, .clinerules, …)
IMPORT_NOTES_MAX = 500  # notes one import run files; the rest are skipped, named, for the next run

# -- what install, uninstall and deliver edit in the project ---------------------------------------
PROJECT_FILE_MAX = 1 << 20  # bytes of a project file they read (.mcp.json, settings.json, CLAUDE.md, AGENTS.md, …)
