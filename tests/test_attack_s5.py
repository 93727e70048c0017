"""Adversarial run on session 5's landings (attack-s5): prime's confidence bar and the Cline layout roles,
through the real faces (CLI, the prompt hook fed Claude Code payloads), each test pinned to a defect found.
"""

from __future__ import annotations

import json

from conftest import cli_in_process, run_cli, write_bank

# A plain bank: no frontmatter, every page's prose says `project`, one page's H1 says it too
PLAIN = {f"{name}.md": f"# {name.title()} notes\n\nThe project keeps its {name} data here; the project is small.\n"
         for name in ("alpha", "beta", "gamma", "delta")}
PLAIN["overview.md"] = "# Project overview\n\nWhat we build and why.\n"


def test_a_route_read_from_the_parse_cache_scores_as_a_fresh_build(tmp_path):
    # the route index's set of H1-derived titles (weighed by prose rarity) was not saved with the cache:
    # a second process, restoring the index, weighed `Project overview` as a declared title (3.6, not 1.913)
    bank = write_bank(tmp_path / "plain", PLAIN)
    cache = {"MEMORYBANK_CACHE_DIR": str(tmp_path / "cache")}
    args = ("--root", str(bank), "--route", "project overview", "--json")
    written = run_cli(*args, env=cache)
    read = run_cli(*args, env=cache)
    fresh = cli_in_process(*args, env={"MEMORYBANK_CACHE": "off"})
    assert written.returncode == read.returncode == fresh.returncode == 0, (written.stderr, read.stderr)
    assert any((tmp_path / "cache").iterdir())  # the second process had a cache to read
    assert json.loads(read.stdout) == json.loads(fresh.stdout) == json.loads(written.stdout)
    prime = ("--root", str(bank), "--prime", "where is the project overview?", "--json")
    assert cli_in_process(*prime, env=cache).stdout == cli_in_process(*prime, env={"MEMORYBANK_CACHE": "off"}).stdout


# Our own small Cline-layout bank (a bird-feeder camera); no line says "left", "status" or "stack"
CLINE = {
    "projectbrief.md": "# Project Brief\n\n## Overview\n\nfeedercam films the garden feeder and names each bird.\n",
    "productContext.md": "# Product Context\n\n## Background\n\nNeighbours wanted to know which birds visit.\n",
    "activeContext.md": "# Active Context\n\n## This week\n\nfeedercam now crops each frame around the bird.\n",
    "systemPatterns.md": "# System Patterns\n\n## Pipeline\n\nA grabber, a detector and a namer pass frames on.\n",
    "techContext.md": "# Tech Context\n\n## Parts\n\nPython, OpenCV and a Raspberry Pi camera.\n",
    "progress.md": "# Progress\n\n## State\n\nNaming works by day; night frames are not handled.\n",
}


def _governed(text: str) -> str:
    return "---\npurpose: a page of feedercam written by hand\n---\n" + text


def test_a_plain_core_file_keeps_its_role_when_other_core_files_declare_a_purpose(tmp_path):
    # the layout's evidence is the core files the bank holds (layout.py: "a bank holding at least three of
    # the six"); counting only the files *without* metadata made a purpose written on four other pages take
    # progress.md's role away: metadata on one page changed another page's answer
    files = {name: _governed(text) if name in ("projectbrief.md", "productContext.md", "activeContext.md",
                                               "systemPatterns.md") else text for name, text in CLINE.items()}
    bank = write_bank(tmp_path / "mixed", files)
    proc = cli_in_process("--root", str(bank), "--route", "what is left to do?", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["results"]
    assert rows and rows[0]["path"] == "progress.md" and rows[0]["why"].startswith("layout: progress"), rows
    assert not any("layout:" in row["why"] for row in rows if row["path"] != "progress.md"), rows


# A bank whose subject is a code noun: how the workers' exceptions are handled (Chinese and English pages)
ERRORS = {
    "zh-errors.md": "# 错误处理\n\n## 异常\n\n工作进程抛出的每个异常都会记录下来，任务会重试三次。\n",
    "errors.md": "# Error handling\n\n## Exceptions\n\nEvery exception raised by a worker is logged and retried.\n",
    "deploy.md": "# Deployment\n\n## Servers\n\nWe deploy to two servers behind a load balancer every Friday.\n",
    "storage.md": "# Storage\n\n## Database\n\nOrders live in PostgreSQL; backups run nightly.\n",
}


def test_a_chinese_function_word_holding_a_pointer_character_does_not_point_at_code(tmp_path):
    # 那么 (then), 应该 (should), 因此 (therefore), 如此 (so) hold 那/该/此, read as "this/that": the prompt was
    # taken to point at code in the conversation, 异常 (exceptions) became a request word and prime fell silent
    # on a question the same words without the function word are pointed for
    bank = write_bank(tmp_path / "errors", ERRORS)
    for prompt in ("那么异常会被重试吗？", "应该怎么记录异常？", "因此异常会被重试吗？", "如此一来异常会被重试吗？",
                   "此时异常会被记录吗？"):
        proc = cli_in_process("--root", str(bank), "--prime", prompt, "--json")
        assert proc.returncode == 0, proc.stderr
        paths = [item["path"] for item in json.loads(proc.stdout)["documents"]]
        assert "zh-errors.md" in paths, (prompt, paths)
    # a pointer that is one still silences the request about the conversation's code
    for prompt in ("把这个异常改成警告", "这个变量改个名字"):
        proc = cli_in_process("--root", str(bank), "--prime", prompt, "--json")
        assert json.loads(proc.stdout)["documents"] == [], prompt


def test_a_russian_conjunction_holding_a_pointer_word_does_not_point_at_code(tmp_path):
    # `того` of "кроме того" (besides) and "после того как" (after) points at nothing: read as a pointer, it made
    # `исключение` (exception) a request word and prime fell silent on the bank's own topic
    files = {**ERRORS, "ru-errors.md": "# Обработка ошибок\n\n## Исключения\n\nКаждое исключение воркера пишется в "
                                      "лог, задача повторяется три раза.\n"}
    bank = write_bank(tmp_path / "errors", files)
    for prompt, page in (("кроме того, как исключения повторяются?", "ru-errors.md"),
                         ("что происходит после того как исключение поймано?", "ru-errors.md"),
                         ("для того чтобы исключение повторилось, что нужно?", "ru-errors.md")):
        proc = cli_in_process("--root", str(bank), "--prime", prompt, "--json")
        assert proc.returncode == 0, proc.stderr
        assert page in [item["path"] for item in json.loads(proc.stdout)["documents"]], prompt
    for prompt in ("перепиши это исключение", "rename that exception"):  # a pointer that is one
        proc = cli_in_process("--root", str(bank), "--prime", prompt, "--json")
        assert json.loads(proc.stdout)["documents"] == [], prompt


def test_a_russian_yes_no_question_with_li_is_a_question_not_a_request(tmp_path):
    # `ли` was listed among the asking words, but only a clause's first word was compared and ли never opens a
    # clause ("повторяются ли исключения?" = "are exceptions retried?"): the question was read as a request, in
    # which a code noun anchors nothing, and prime fell silent where the English twin is pointed
    files = {**ERRORS, "ru-errors.md": "# Обработка ошибок\n\n## Исключения\n\nКаждое исключение воркера пишется в "
                                      "лог, задача повторяется три раза.\n"}
    bank = write_bank(tmp_path / "errors", files)
    for prompt, page in (("повторяются ли исключения?", "ru-errors.md"), ("логируются ли исключения?", "ru-errors.md"),
                         ("are exceptions retried?", "errors.md")):
        proc = cli_in_process("--root", str(bank), "--prime", prompt, "--json")
        assert proc.returncode == 0, proc.stderr
        assert page in [item["path"] for item in json.loads(proc.stdout)["documents"]], prompt
