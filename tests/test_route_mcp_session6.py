"""Session 6's routing rules through the real MCP server, answering as the CLI does (issue 14).

One server over one bank holding route-title's governed pages and route-plain3's Cline folder: a
document asked for by its title comes first, a quantity question reaches the line stating the number
(quoted in `why`), and a larger limit extends the same ranking. Each `bank_route` answer is also
compared with the CLI's `--json` answer for the same arguments.
"""

from __future__ import annotations

import json

from conftest import cli_in_process, run_cli
from test_route_plain3 import CORE, NUMBER_LINE
from test_route_title import GOVERNED


def test_title_answer_type_and_limits_through_the_server(scratch_server):
    session = scratch_server  # the worker's server (its start is not what this tests), over this bank
    root = session.load({**GOVERNED, **{f"cline/{k}": v for k, v in CORE.items()}})
    asked: list[str] = []
    def both(question: str, limit: int = 5) -> list[dict]:
        served = session.ok("bank_route", {"question": question, "limit": limit})["results"]
        # one real process, then the CLI's entry point in this process
        cli = (cli_in_process if asked else run_cli)("--root", str(root), "--route", question, "--limit",
                                                     str(limit), "--json")
        asked.append(question)
        assert cli.returncode == 0, cli.stderr
        assert json.loads(cli.stdout)["results"] == served
        return served

    assert both("encryption")[0]["path"] == "domain/encryption.md"
    quantity = both("how much storage may the thumbnail cache take?")
    assert quantity[0]["path"] == "cline/techContext.md"
    assert NUMBER_LINE in quantity[0]["why"]
    longest = [row["path"] for row in both("timeline events order", 25)]
    for limit in (1, 3, 5, 10):
        assert [row["path"] for row in both("timeline events order", limit)] == longest[:limit]
