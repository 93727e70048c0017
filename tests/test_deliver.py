"""Delivery (§14): channels within budgets in rank order, withholding, and never clobbering user files."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURE, cli_in_process, doc, fail_write_temp, run_cli
from gitrepo import Repo

from memorybank.bank import Bank
from memorybank.deliver import deliver, parse_targets
from memorybank.deliver.files import owner_digest
from memorybank.errors import BankError
from memorybank.lang import estimate_tokens

DAY1 = "2026-01-10T12:00:00Z"
DAY2 = "2026-01-11T12:00:00Z"
TOPICS = {"api": 6, "storage": 4, "ui": 2}  # 12 recipes; api has one more than a topic file holds
ALL_TARGETS = "cursor,agents,claude,copilot,skill,mirror"


def _fm(fields: dict) -> str:
    """A document with the given frontmatter: values JSON-quoted (valid YAML) through conftest's `doc`."""
    extra = dict(fields)
    title, purpose, status = extra.pop("title"), extra.pop("purpose", "P"), extra.pop("status", "active")
    quoted = {k: [json.dumps(x, ensure_ascii=False) for x in v] if isinstance(v, list) else json.dumps(
        v, ensure_ascii=False) for k, v in extra.items()}
    return doc(title, purpose, status, **quoted)


def rule(n: int, priority: int, status: str = "active", **extra: object) -> str:
    fields = {"title": f"Rule {n:02d}", "doc_kind": "rule", "status": status, "purpose": f"Rule number {n}.",
              "do": f"Rule {n:02d}: validate every input at the module boundary and return typed results "
                    f"so callers never guess what came back from the service layer",
              "dont": f"Don't pass raw dictionaries between layers in rule {n:02d} code paths",
              "why": "Typed boundaries catch mistakes early.", "scope": "python", "priority": priority,
              "applies_to": ["src/**/*.py"]}
    fields.update(extra)
    return _fm(fields)


def recipe(topic: str, n: int, **extra: object) -> str:
    fields = {"title": f"{topic.title()} recipe {n}", "doc_kind": "recipe", "status": "active",
              "purpose": f"How to do {topic} task {n}.", "topic": topic,
              "when": f"Adding {topic} thing number {n}", "do": f"Follow the {topic} pattern {n}.",
              "dont": "Copy an old module wholesale.", "why": "Patterns keep reviews short.",
              "priority": 5 - n % 5, "applies_to": [f"src/{topic}/**"]}
    fields.update(extra)
    body = f"\n## Example\n\n```python\ndef {topic}_{n}():\n    return {n}\n```\n"
    return _fm(fields) + body


def build(tmp_path: Path) -> tuple[Repo, Path]:
    """A git project with a bank of 30 rules (one draft, one anchored to a deleted file) and 12 recipes."""
    repo = Repo(tmp_path / "project")
    bank = repo.path / "memory_bank"
    priorities = [(n % 5) + 1 for n in range(30)]
    for n in range(1, 29):
        repo.write(f"memory_bank/rules/r{n:02d}.md", rule(n, priorities[n - 1]))
    repo.write("memory_bank/rules/r29.md", rule(29, 5, status="draft", do="Draft rule that must never ship."))
    repo.write("memory_bank/rules/r30.md", rule(30, 5, anchors=["src/legacy.py"], applies_to=[]))
    # authority: three documents derive from r03, so it outranks its priority peers
    for n in range(3):
        repo.write(f"memory_bank/engineering/uses-r03-{n}.md",
                   _fm({"title": f"Uses {n}", "status": "active", "derived_from": ["../rules/r03.md"]}))
    for topic, count in TOPICS.items():
        for n in range(1, count + 1):
            repo.write(f"memory_bank/recipes/{topic}-{n}.md", recipe(topic, n))
    repo.write("src/legacy.py", "x = 1\n")
    repo.write("src/app.py", "x = 2\n")
    repo.commit("bank", DAY1)
    repo.git("rm", "-q", "src/legacy.py")
    repo.commit("drop legacy", DAY2)
    return repo, bank


def expected_rank(bank: Bank) -> list[str]:
    """Active, deliverable rules in §14.1 order, computed independently of the implementation."""
    bank.refresh()
    scored = []
    for path in bank.paths:
        doc = bank.docs[path]
        if doc.doc_kind != "rule" or doc.status != "active" or path == "rules/r30.md":
            continue
        score = doc.frontmatter["priority"] * 20 + 10 + min(len(bank.incoming.get(path, [])), 10) * 2 + 1.5 * 5
        scored.append((-score, path))
    return [p for _, p in sorted(scored)]


def channel(result: dict, file: str) -> dict:
    return next(c for c in result["channels"] if c["file"] == file)


def frontmatter(text: str) -> dict:
    assert text.startswith("---\n")
    return yaml.safe_load(text[4:text.index("\n---\n")])


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo, _ = build(tmp_path_factory.mktemp("built"))
    return repo.path


@pytest.fixture
def project(built: Path, tmp_path: Path) -> tuple[Repo, Path]:
    """A fresh copy (work tree and history) of the 42-document project; git once per module is cheaper."""
    target = tmp_path / "project"
    shutil.copytree(built, target, symlinks=True)
    repo = Repo.__new__(Repo)
    repo.path = target
    return repo, target / "memory_bank"


def test_channel_a_keeps_top_ranked_rules_within_budget_and_reports_the_rest(project):
    repo, root = project
    bank = Bank(root)
    result = deliver(bank, targets=ALL_TARGETS)
    a = channel(result, ".cursor/rules/memorybank-rules.mdc")
    text = (repo.path / a["file"]).read_text(encoding="utf-8")
    ranked = expected_rank(bank)
    assert 0 < len(a["kept"]) < 15 and a["tokens"] <= 800 == a["budget"]  # the token budget binds first
    assert a["tokens"] == estimate_tokens(text)
    assert a["kept"] == ranked[:len(a["kept"])]
    assert ranked.index("rules/r03.md") < ranked.index("rules/r08.md")  # same priority, more authority
    budget_drops = [d["path"] for d in a["dropped"] if d["reason"] == "budget"]
    assert budget_drops == ranked[len(a["kept"]):]
    rule_lines = [line for line in text.splitlines() if line.startswith("- [python] ")]
    assert [line[len("- [python] Rule "):][:2] for line in rule_lines] == [p[7:9] for p in a["kept"]]
    assert rule_lines[0].endswith("Do NOT pass raw dictionaries between layers in rule "
                                  f"{a['kept'][0][7:9]} code paths.")


def test_rule_whose_anchor_was_deleted_is_withheld_and_reported(project):
    repo, root = project
    result = deliver(Bank(root), targets=ALL_TARGETS)
    for file in (".cursor/rules/memorybank-rules.mdc", "AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"):
        entry = channel(result, file)
        assert {"path": "rules/r30.md", "reason": "missing anchor"} in entry["dropped"]
        assert "rules/r30.md" not in entry["kept"]
        assert "Rule 30:" not in (repo.path / file).read_text(encoding="utf-8")


def test_draft_rule_is_never_delivered(project):
    repo, root = project
    result = deliver(Bank(root), targets=ALL_TARGETS)
    assert {"path": "rules/r29.md", "kind": "rule", "reason": "not active"} in result["withheld"]
    for entry in result["channels"]:
        assert "rules/r29.md" not in entry["kept"]
        assert "Draft rule" not in (repo.path / entry["file"]).read_text(encoding="utf-8")


def test_topic_files_hold_at_most_five_recipes_with_cursor_and_copilot_frontmatter(project):
    repo, root = project
    result = deliver(Bank(root), targets=ALL_TARGETS)
    api = channel(result, ".cursor/rules/memorybank-api.mdc")
    assert len(api["kept"]) == 5 and [d["reason"] for d in api["dropped"]] == ["budget"]
    assert api["tokens"] <= 750
    for topic, count in TOPICS.items():
        mdc = (repo.path / f".cursor/rules/memorybank-{topic}.mdc").read_text(encoding="utf-8")
        head = frontmatter(mdc)
        assert head["alwaysApply"] is False
        assert head["globs"] == f"src/{topic}/**" and topic in head["description"]
        assert mdc.count("### ") == min(count, 5) and "```python" in mdc
        copilot = (repo.path / f".github/instructions/memorybank-{topic}.instructions.md").read_text(encoding="utf-8")
        assert frontmatter(copilot)["applyTo"] == f"src/{topic}/**"
        assert (repo.path / f".trae/rules/memorybank-{topic}.md").read_text(encoding="utf-8") == mdc
    always = frontmatter((repo.path / ".cursor/rules/memorybank-rules.mdc").read_text(encoding="utf-8"))
    assert always["alwaysApply"] is True
    skill = (repo.path / ".claude/skills/memorybank/SKILL.md").read_text(encoding="utf-8")
    assert frontmatter(skill)["name"] == "memorybank" and "### storage" in skill


def test_globs_join_in_cursor_form_and_stay_valid_yaml(tmp_path):
    repo = Repo(tmp_path / "p")
    repo.write("memory_bank/recipes/t.md", recipe("web", 1, applies_to=["**/*.test.ts", "src/web/**"]))
    repo.write("memory_bank/recipes/u.md", recipe("web", 2, applies_to=["*.tsx"]))
    deliver(Bank(repo.path / "memory_bank"))
    head = frontmatter((repo.path / ".cursor/rules/memorybank-web.mdc").read_text(encoding="utf-8"))
    assert head["globs"] == "**/*.test.ts,*.tsx,src/web/**"
    copilot = (repo.path / ".github/instructions/memorybank-web.instructions.md").read_text(encoding="utf-8")
    assert frontmatter(copilot)["applyTo"] == "**/*.test.ts,*.tsx,src/web/**"


def test_chinese_rule_text_is_estimated_at_the_cjk_rate(tmp_path):
    repo = Repo(tmp_path / "p")
    do = "所有金额必须以整数分存储"  # 12 CJK characters
    repo.write("memory_bank/rules/money.md", _fm({"title": "金额", "doc_kind": "rule", "status": "active",
                                                  "do": do, "dont": "使用浮点数"}))
    result = deliver(Bank(repo.path / "memory_bank"), targets="cursor")
    text = (repo.path / ".cursor/rules/memorybank-rules.mdc").read_text(encoding="utf-8")
    assert f"- {do}. Do NOT 使用浮点数." in text
    wide = sum(1 for ch in text if ord(ch) >= 0x2E80)
    narrow = len(text) - wide
    assert wide == 17
    assert channel(result, ".cursor/rules/memorybank-rules.mdc")["tokens"] == -(-(narrow * 25 + wide * 60) // 100)
    assert estimate_tokens("ab") == 1 and estimate_tokens("金") == 1 and estimate_tokens("金金") == 2
    assert estimate_tokens("a" * 4 + "金" * 5) == 4


def test_existing_agents_md_gets_our_block_appended_and_keeps_every_user_byte(project):
    repo, root = project
    user = "# Our agents\n\nBe kind to the build. Ünïcode stays.\n\n<!-- a user comment -->".encode()
    (repo.path / "AGENTS.md").write_bytes(user)
    deliver(Bank(root))
    data = (repo.path / "AGENTS.md").read_bytes()
    assert data.startswith(user)
    tail = data[len(user):].decode("utf-8")
    # no line break after the block: the user's file had none at its end either
    assert tail.startswith("\n\n<!-- memorybank:begin digest=") and tail.endswith("<!-- memorybank:end -->")
    assert "## Project memory bank (`memory_bank/`)" in tail


def test_second_run_writes_nothing(project):
    repo, root = project
    deliver(Bank(root), targets=ALL_TARGETS)
    generated = [p for p in repo.path.rglob("*") if p.is_file() and ".git" not in p.parts
                 and "memory_bank" not in p.parts and "src" not in p.parts]
    assert len(generated) == 19  # A, 3 B, 3 C, 3 D, E, 8 mirrors
    for path in generated:
        os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    result = deliver(Bank(root), targets=ALL_TARGETS)
    assert {c["action"] for c in result["channels"]} == {"unchanged"} and result["stale"] == []
    assert all(p.stat().st_mtime_ns == 1_000_000_000 for p in generated)


def test_hand_edit_inside_our_block_is_refused_and_force_overwrites(project):
    repo, root = project
    (repo.path / "AGENTS.md").write_text("Mine.\n", encoding="utf-8")
    deliver(Bank(root))
    path = repo.path / "AGENTS.md"
    edited = path.read_text(encoding="utf-8").replace("### Project rules", "### My rules")
    path.write_text(edited, encoding="utf-8")
    result = deliver(Bank(root))
    assert result["refused"] == ["AGENTS.md"] and channel(result, "AGENTS.md")["action"] == "refused"
    assert path.read_text(encoding="utf-8") == edited
    cli = cli_in_process("--root", str(root), "--deliver")
    assert cli.returncode == 1 and "refused" in cli.stdout
    assert path.read_text(encoding="utf-8") == edited
    result = deliver(Bank(root), force=True)
    assert channel(result, "AGENTS.md")["action"] == "update"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("Mine.\n\n<!-- memorybank:begin") and "### Project rules" in text
    assert text.count("memorybank:begin") == 1


def test_hand_edited_generated_file_is_refused_unless_forced(project):
    repo, root = project
    deliver(Bank(root))
    path = repo.path / ".cursor/rules/memorybank-ui.mdc"
    path.write_text(path.read_text(encoding="utf-8") + "my note\n", encoding="utf-8")
    assert channel(deliver(Bank(root)), ".cursor/rules/memorybank-ui.mdc")["action"] == "refused"
    assert path.read_text(encoding="utf-8").endswith("my note\n")
    assert channel(deliver(Bank(root), force=True), ".cursor/rules/memorybank-ui.mdc")["action"] == "update"
    assert "my note" not in path.read_text(encoding="utf-8")


def test_user_owned_rules_file_without_marker_is_never_overwritten(project):
    repo, root = project
    path = repo.path / ".cursor/rules/memorybank-rules.mdc"
    path.parent.mkdir(parents=True)
    path.write_text("---\nalwaysApply: true\n---\nMy own rules.\n", encoding="utf-8")
    before = path.read_bytes()
    for force in (False, True):
        entry = channel(deliver(Bank(root), force=force), ".cursor/rules/memorybank-rules.mdc")
        assert entry["action"] == "skipped" and "marker" in entry["reason"]
        assert path.read_bytes() == before
    assert owner_digest(before.decode()) is None


def test_removing_a_topics_last_recipe_removes_its_generated_files(project):
    repo, root = project
    deliver(Bank(root), targets=ALL_TARGETS)
    stray = repo.path / ".cursor/rules/memorybank-notes.mdc"
    stray.write_text("user file named like ours\n", encoding="utf-8")
    for n in (1, 2):
        (root / f"recipes/ui-{n}.md").unlink()
    result = deliver(Bank(root), targets=ALL_TARGETS)
    removed = sorted(c["file"] for c in result["channels"] if c["action"] == "remove")
    assert removed == [".cursor/rules/memorybank-ui.mdc", ".github/instructions/memorybank-ui.instructions.md",
                       ".qoder/rules/memorybank-ui.md", ".trae/rules/memorybank-ui.md"]
    assert not (repo.path / ".cursor/rules/memorybank-ui.mdc").exists()
    assert (repo.path / ".cursor/rules/memorybank-api.mdc").exists() and stray.exists()


def test_check_exits_zero_after_delivery_and_one_after_a_rules_do_changes(project):
    repo, root = project
    deliver(Bank(root))
    ok = cli_in_process("--root", str(root), "--deliver", "--check")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    top = expected_rank(Bank(root))[0]
    doc = root / top
    doc.write_text(doc.read_text(encoding="utf-8").replace("validate every input", "check every input"),
                   encoding="utf-8")
    before = {p: p.read_bytes() for p in repo.path.rglob("*.md*") if "memory_bank" not in p.parts}
    stale = cli_in_process("--root", str(root), "--deliver", "--check", "--json")
    assert stale.returncode == 1
    report = json.loads(stale.stdout)
    assert report["mode"] == "check"
    assert report["stale"] == [".cursor/rules/memorybank-rules.mdc", ".github/copilot-instructions.md", "AGENTS.md"]
    assert before == {p: p.read_bytes() for p in before}


def test_dry_run_writes_nothing_and_shows_the_plan(project):
    repo, root = project
    result = cli_in_process("--root", str(root), "--deliver", "--dry-run", "--targets", "cursor")
    assert result.returncode == 0, result.stderr
    assert "memorybank-rules.mdc" in result.stdout and "create" in result.stdout and "dropped:" in result.stdout
    assert "rules/r30.md (missing anchor)" in result.stdout
    assert not (repo.path / ".cursor").exists()


def test_targets_are_checked_and_project_can_be_named(project, tmp_path):
    repo, root = project
    with pytest.raises(BankError, match="Unknown delivery target: vim"):
        parse_targets("cursor,vim")
    assert parse_targets(None) == ("cursor", "agents", "copilot")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = deliver(Bank(root), project=elsewhere, targets=["claude"])
    assert result["bank"] == "../project/memory_bank" and (elsewhere / "CLAUDE.md").exists()
    assert not (repo.path / "CLAUDE.md").exists()
    with pytest.raises(BankError, match="does not exist"):
        deliver(Bank(root), project=tmp_path / "nope")


def test_crlf_shared_file_gets_a_crlf_block_and_stays_stable(tmp_path):
    repo = Repo(tmp_path / "p")
    repo.write("memory_bank/rules/a.md", rule(1, 3))
    user = b"# Claude\r\n\r\nUser text.\r\n"
    (repo.path / "CLAUDE.md").write_bytes(user)
    deliver(Bank(repo.path / "memory_bank"), targets="claude")
    data = (repo.path / "CLAUDE.md").read_bytes()
    assert data.startswith(user) and b"\r\n<!-- memorybank:end -->\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")
    assert channel(deliver(Bank(repo.path / "memory_bank"), targets="claude"), "CLAUDE.md")["action"] == "unchanged"


def test_fixture_bank_delivers_its_rule_and_recipe(tmp_path):
    repo = Repo(tmp_path / "p")
    shutil.copytree(FIXTURE, repo.path / "memory_bank")
    repo.write("src/api/app.py", "x = 1\n")
    repo.commit("init", DAY1)
    result = run_cli("--root", str(repo.path / "memory_bank"), "--deliver", "--json", "--targets", ALL_TARGETS)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert channel(report, ".cursor/rules/memorybank-rules.mdc")["kept"] == ["rules/no-print.md"]
    assert channel(report, ".cursor/rules/memorybank-api.mdc")["kept"] == ["rules/add-endpoint.md"]
    rules = (repo.path / ".cursor/rules/memorybank-rules.mdc").read_text(encoding="utf-8")
    assert "- [python] Log through the module logger. Do NOT call print() in service code." in rules
    api = (repo.path / ".cursor/rules/memorybank-api.mdc").read_text(encoding="utf-8")
    assert frontmatter(api)["globs"] == "src/api/**"
    assert '@router.get("/invoices/{number}")' in api
    agents = (repo.path / "AGENTS.md").read_text(encoding="utf-8")
    assert "- When adding a new HTTP endpoint: read `memory_bank/rules/add-endpoint.md` (Add an API endpoint)." \
        in agents


def test_drifted_rule_is_withheld_from_always_on_channels_but_scoped_recipes_stay(tmp_path):
    repo = Repo(tmp_path / "p")
    repo.write("memory_bank/rules/core.md", rule(1, 3, anchors=["src/core.py"], applies_to=[]))
    repo.write("memory_bank/recipes/core.md", recipe("core", 1, anchors=["src/core.py"], applies_to=[]))
    repo.write("src/core.py", "x = 1\n")
    repo.commit("docs and code", "2026-01-01T00:00:00Z")
    repo.write("src/core.py", "x = 2\n")
    repo.commit("code moves on", "2026-06-01T00:00:00Z")
    result = deliver(Bank(repo.path / "memory_bank"), targets="cursor,agents")
    assert channel(result, ".cursor/rules/memorybank-rules.mdc")["action"] == "none"
    assert {"path": "rules/core.md", "reason": "drifted"} in channel(result, "AGENTS.md")["dropped"]
    assert {"path": "recipes/core.md", "reason": "drifted"} in channel(result, "AGENTS.md")["dropped"]
    topic = channel(result, ".cursor/rules/memorybank-core.mdc")
    assert topic["kept"] == ["recipes/core.md"]
    assert frontmatter((repo.path / topic["file"]).read_text(encoding="utf-8"))["globs"] == "src/core.py"


def test_malformed_or_unterminated_blocks_are_refused_even_with_force(tmp_path):
    repo = Repo(tmp_path / "p")
    repo.write("memory_bank/rules/a.md", rule(1, 3))
    path = repo.path / "AGENTS.md"
    broken = "Mine\n<!-- memorybank:begin digest=000000000000 -->\nhalf a block\n"
    path.write_text(broken, encoding="utf-8")
    entry = channel(deliver(Bank(repo.path / "memory_bank"), targets="agents", force=True), "AGENTS.md")
    assert entry["action"] == "refused" and "1 begin and 0 end" in entry["reason"]
    assert path.read_text(encoding="utf-8") == broken


def test_block_replaced_in_place_keeps_text_after_it(tmp_path):
    repo = Repo(tmp_path / "p")
    repo.write("memory_bank/rules/a.md", rule(1, 3))
    root = repo.path / "memory_bank"
    deliver(Bank(root), targets="claude")
    path = repo.path / "CLAUDE.md"
    path.write_text("Before.\n\n" + path.read_text(encoding="utf-8") + "\nAfter, no newline", encoding="utf-8")
    (root / "rules/a.md").write_text(rule(1, 3, do="A brand new instruction"), encoding="utf-8")
    entry = channel(deliver(Bank(root), targets="claude"), "CLAUDE.md")
    text = path.read_text(encoding="utf-8")
    assert entry["action"] == "update" and "- [python] A brand new instruction." in text
    assert text.startswith("Before.\n\n<!-- memorybank:begin") and text.endswith("-->\n\nAfter, no newline")


def test_stale_generated_file_edited_by_hand_is_refused_not_removed(project):
    repo, root = project
    deliver(Bank(root))
    path = repo.path / ".cursor/rules/memorybank-ui.mdc"
    path.write_text(path.read_text(encoding="utf-8") + "mine\n", encoding="utf-8")
    for n in (1, 2):
        (root / f"recipes/ui-{n}.md").unlink()
    result = deliver(Bank(root), targets="cursor")
    assert channel(result, ".cursor/rules/memorybank-ui.mdc")["action"] == "refused" and path.exists()
    assert channel(deliver(Bank(root), targets="cursor", force=True),
                   ".cursor/rules/memorybank-ui.mdc")["action"] == "remove"
    assert not path.exists()


def test_symlinked_target_is_left_alone(tmp_path):
    repo = Repo(tmp_path / "p")
    repo.write("memory_bank/rules/a.md", rule(1, 3))
    outside = tmp_path / "outside.md"
    outside.write_text("not yours\n", encoding="utf-8")
    (repo.path / "AGENTS.md").symlink_to(outside)
    entry = channel(deliver(Bank(repo.path / "memory_bank"), targets="agents"), "AGENTS.md")
    assert entry["action"] == "skipped" and outside.read_text(encoding="utf-8") == "not yours\n"


def test_globs_follow_editor_conventions():
    from memorybank.deliver.globs import matches

    assert matches("src/a.py", ["src/**/*.py"]) and matches("src/x/y/a.py", ["src/**/*.py"])
    assert not matches("lib/a.py", ["src/**/*.py"]) and not matches("src/a.pyc", ["src/**/*.py"])
    assert matches("deep/in/a.py", ["*.py"]) and matches("src/api/v1/x.py", ["src/api"])
    assert not matches("src/apix.py", ["src/api"]) and matches("a.tsx", ["*.{ts,tsx}"])
    assert matches("src/x.py", ["./src/"]) and matches("a/b.c", ["a/[ab].c"]) and not matches("a/c.c", ["a/[!c].c"])


def test_recipe_skeleton_is_the_first_example_block_cut_to_fifteen_lines(tmp_path):
    repo = Repo(tmp_path / "p")
    long_block = "\n".join(f"step_{i}()" for i in range(1, 21))
    text = recipe("jobs", 1).split("\n## Example")[0] + (
        "\n## Steps\n\n```sh\nnot the skeleton\n```\n\n## Example\n\nSome prose.\n\n~~~go\n"
        + long_block + "\n~~~\n\n```python\nsecond_block()\n```\n")
    repo.write("memory_bank/recipes/jobs.md", text)
    deliver(Bank(repo.path / "memory_bank"), targets="cursor")
    out = (repo.path / ".cursor/rules/memorybank-jobs.mdc").read_text(encoding="utf-8")
    assert "```go\nstep_1()\n" in out and "step_15()\n```" in out and "step_16" not in out
    assert "not the skeleton" not in out and "second_block" not in out


def test_install_hook_and_delivery_share_the_claude_md_block(tmp_path):
    from memorybank.install import install_hook

    repo = Repo(tmp_path / "p")
    repo.write("memory_bank/rules/a.md", rule(1, 3))
    root = repo.path / "memory_bank"
    (repo.path / "CLAUDE.md").write_text("# Ours\n", encoding="utf-8")
    install_hook(root)
    entry = channel(deliver(Bank(root), targets="claude"), "CLAUDE.md")
    assert entry["action"] == "update" and entry["reason"] == "block replaced"
    after = (repo.path / "CLAUDE.md").read_text(encoding="utf-8")
    assert after.startswith("# Ours\n\n<!-- memorybank:begin digest=") and after.count("memorybank:begin") == 1
    assert "- [python] Rule 01" in after
    again = install_hook(root)
    assert again["files"][2]["action"] == "unchanged" and "by delivery" in again["files"][2]["note"]
    assert (repo.path / "CLAUDE.md").read_text(encoding="utf-8") == after
    assert deliver(Bank(root), targets="claude", check=True)["stale"] == []


def test_a_rule_still_holding_template_placeholders_is_withheld_everywhere(tmp_path):
    # A rule created from the shipped template with only `do` filled used to ship
    # "Do NOT <the mistake this rule prevents>." into every always-on file.
    repo = Repo(tmp_path / "p")
    repo.write("memory_bank/rules/ok.md", rule(1, 5))
    repo.write("memory_bank/rules/half.md", rule(2, 5, dont="<the mistake this rule prevents>",
                                                 scope="<language or area tag, such as python>"))
    result = deliver(Bank(repo.path / "memory_bank"), targets=ALL_TARGETS)
    assert {"path": "rules/half.md", "kind": "rule", "reason": "incomplete-rule: placeholder left in `dont`; "
                                                                   "placeholder left in `scope`"} \
        in result["withheld"]
    for entry in result["channels"]:
        assert "rules/half.md" not in entry["kept"]
        assert "<the mistake" not in (repo.path / entry["file"]).read_text(encoding="utf-8")
    assert "rules/ok.md" in channel(result, "AGENTS.md")["kept"]


def test_outside_git_a_rule_whose_anchor_does_not_exist_is_withheld(tmp_path):
    project = tmp_path / "plain"  # no git: drift has nothing to say, the disk still does
    root = project / "memory_bank"
    shutil.copytree(FIXTURE, root)
    result = deliver(Bank(root), dry_run=True)
    entry = channel(result, "AGENTS.md")
    assert {"path": "rules/no-print.md", "reason": "missing anchor"} in entry["dropped"]
    (project / "src").mkdir()
    entry = channel(deliver(Bank(root), dry_run=True), "AGENTS.md")
    assert "rules/no-print.md" in entry["kept"]


def _small(tmp_path: Path) -> Repo:
    """A project whose bank holds one rule and one recipe (topic api), enough for every channel."""
    repo = Repo(tmp_path / "p")
    repo.write("memory_bank/rules/a.md", rule(1, 3))
    repo.write("memory_bank/recipes/api-1.md", recipe("api", 1))
    return repo


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(folder).parts}


@pytest.mark.parametrize(("obstacle", "file", "reason"), [
    ("AGENTS.md/", "AGENTS.md", "a folder, not a file"),
    (".cursor", ".cursor/rules/memorybank-rules.mdc", ".cursor is a file, not a folder"),
    (".cursor/rules/memorybank-rules.mdc/", ".cursor/rules/memorybank-rules.mdc", "a folder, not a file"),
])
def test_a_target_that_is_a_folder_or_sits_under_a_file_is_skipped_with_its_reason(tmp_path, obstacle, file, reason):
    repo = _small(tmp_path)
    place = repo.path / obstacle.rstrip("/")
    if obstacle.endswith("/"):
        place.mkdir(parents=True)
    else:
        place.write_text("user file\n", encoding="utf-8")
    root = str(repo.path / "memory_bank")
    for mode in (("--check",), ("--dry-run",), ()):
        proc = cli_in_process("--root", root, "--deliver", "--json", *mode)
        assert "Traceback" not in proc.stderr and proc.stdout, proc.stderr
        entry = channel(json.loads(proc.stdout), file)
        assert entry["action"] == "skipped" and reason in entry["reason"]
    assert (repo.path / ".github" / "copilot-instructions.md").is_file()  # the other channels were delivered
    if not obstacle.endswith("/"):
        assert place.read_text(encoding="utf-8") == "user file\n"


def test_a_write_failing_partway_changes_no_delivered_file_and_leaves_no_temp(tmp_path, monkeypatch):
    repo = _small(tmp_path)
    root = repo.path / "memory_bank"
    deliver(Bank(root))
    repo.write("memory_bank/rules/a.md", rule(1, 3, do="Always log the request id at the boundary"))
    repo.write("memory_bank/recipes/api-1.md", recipe("api", 1, do="Use the new api pattern."))
    before = _snapshot(repo.path)
    fail_write_temp(monkeypatch, "memorybank-api.instructions.md",
                    PermissionError(13, "Permission denied", "memorybank-api.instructions.md"))
    with pytest.raises(BankError, match=r"cannot write \.github/instructions/memorybank-api\.instructions\.md "
                                        r"\(Permission denied\).*deliver again"):
        deliver(Bank(root))
    assert _snapshot(repo.path) == before


def test_a_failed_delivery_removes_the_folders_it_made(tmp_path, monkeypatch):
    repo = _small(tmp_path)
    fail_write_temp(monkeypatch, "AGENTS.md", OSError(28, "No space left on device", "AGENTS.md"))
    before = _snapshot(repo.path)
    with pytest.raises(BankError, match=r"cannot write AGENTS\.md \(No space left on device\)"):
        deliver(Bank(repo.path / "memory_bank"))
    assert _snapshot(repo.path) == before
    assert not (repo.path / ".cursor").exists() and not (repo.path / ".github").exists()


def test_a_bank_at_the_project_top_is_refused_with_the_project_fix(tmp_path):
    repo = Repo(tmp_path / "p")
    repo.write("rules/a.md", rule(1, 3))
    before = _snapshot(repo.path)
    for mode in (("--check",), ("--dry-run",), ()):
        proc = cli_in_process("--root", str(repo.path), "--deliver", *mode)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        assert "inside the bank" in proc.stderr and "Pass `--project`" in proc.stderr, proc.stderr
    assert _snapshot(repo.path) == before
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert channel(deliver(Bank(repo.path), project=elsewhere), "AGENTS.md")["action"] == "create"
