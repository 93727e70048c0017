"""Session 7's routing rules through the real MCP server, answering as the CLI does (issue 14).

One server over one bank holding route-plain4's Cline folder, kanji-fold's pages and a template written
as the page it creates: a where / built-yet / by-default question reaches the line of its type (quoted
in `why`), a Simplified question finds the Japanese and the Traditional page and shows their own
characters (route and search), a title made of stopwords is found, and a page under `flows/templates/`
is never returned. Each answer is also compared with the CLI's `--json` for the same arguments.
"""

from __future__ import annotations

import json

from conftest import cli_in_process, run_cli
from test_kanji_fold import BANK as CJK
from test_route_plain4 import CORE, TYPED
from test_template_folder import PLAN


def test_answer_types_character_fold_stopword_titles_and_templates_through_the_server(scratch_server):
    session = scratch_server  # the worker's server (its start is not what this tests), over this bank
    root = session.load({**CJK, **{f"cline/{k}": v for k, v in CORE.items()},
                         "flows/templates/feature/implementation-plan.md": PLAN})
    asked: list[str] = []
    def both(tool: str, flag: str, question: str) -> list[dict]:
        served = session.ok(tool, {"question" if tool == "bank_route" else "query": question})["results"]
        # one real process, then the CLI's entry point in this process
        cli = (cli_in_process if asked else run_cli)("--root", str(root), flag, question, "--json")
        asked.append(question)
        assert cli.returncode == 0, cli.stderr
        assert json.loads(cli.stdout)["results"] == served, question
        return served

    for question, answer, line, _ in TYPED:
        first = both("bank_route", "--route", question)[0]
        assert first["path"] == f"cline/{answer}" and line in first["why"], (question, first)
    clinic = both("bank_route", "--route", "医疗机构的设定用什么管理？")[0]
    assert clinic["path"] == "docs/clinic.md" and clinic["title"] == "病院向け通知"
    backup = both("bank_route", "--route", "资料库每天怎么备份？")[0]
    assert backup["path"] == "docs/backup.md" and "资料库" not in backup["why"]
    found = both("bank_search", "--search", "医疗")
    assert found[0]["path"] == "docs/clinic.md" and "医療機関" in json.dumps(found[0], ensure_ascii=False)
    team = both("bank_route", "--route", "who we are")[0]
    assert team["path"] == "about/team.md" and team["why"] == "title"
    steps = both("bank_route", "--route", "ordered implementation steps and how each is verified")
    assert all(not row["path"].startswith("flows/templates/") for row in steps)
