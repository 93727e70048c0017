"""The writers (§10): every change to a bank goes through these functions and the toolkit beside them.

Toolkit: `files` (text, lock, atomic transactions, temp cleanup), `frontmatter` (line edits and
structural edits, verified), `registry` (index entries, section indexes, link rewriting),
`templates`, `gates`, `session` (lock + refresh + commit frame), `markdown` (body and heading
helpers). Writers: `create`, `body` (edit, update_section), `fields` (set_status, set_field,
set_list, review), `inbox` (promote, discard, list_inbox), `move`, `seed` (init, materialize_flows).
"""

from .body import edit, update_section
from .create import create
from .fields import review, set_field, set_list, set_status
from .inbox import discard, list_inbox, promote
from .move import move
from .seed import init, materialize_flows

__all__ = ["create", "edit", "update_section", "set_status", "set_field", "set_list", "review", "promote",
           "discard", "list_inbox", "init", "materialize_flows", "move"]
