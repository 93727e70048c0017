"""Russian asks yes/no by intonation alone: "исключения повторяются?" (are exceptions retried?) has no question
word, and prime read it as a request, in which a code noun anchors nothing (attack-s5). A clause before `?`
written in Cyrillic is a question unless it says whom it asks to act (a second-person verb, можно, давай).
"""

from __future__ import annotations

import json

from conftest import cli_in_process, write_bank

PAGES = {
    "ru-errors.md": "# Обработка ошибок\n\n## Исключения\n\nКаждое исключение воркера пишется в лог, задача "
                    "повторяется три раза.\n",
    "errors.md": "# Error handling\n\n## Exceptions\n\nEvery exception raised by a worker is logged and retried.\n",
    "deploy.md": "# Deployment\n\n## Servers\n\nWe deploy to two servers behind a load balancer every Friday.\n",
    "storage.md": "# Storage\n\n## Database\n\nOrders live in PostgreSQL; backups run nightly.\n",
}


def pointed(bank, prompt: str) -> list[str]:
    proc = cli_in_process("--root", str(bank), "--prime", prompt, "--json")
    assert proc.returncode == 0, proc.stderr
    return [item["path"] for item in json.loads(proc.stdout)["documents"]]


def test_a_russian_question_by_intonation_is_a_question(tmp_path):
    bank = write_bank(tmp_path / "errors", PAGES)
    for prompt in ("исключения повторяются?", "каждое исключение пишется в лог?", "ок. исключения повторяются?"):
        assert "ru-errors.md" in pointed(bank, prompt), prompt


def test_a_russian_request_with_a_question_mark_is_still_a_request(tmp_path):
    bank = write_bank(tmp_path / "errors", PAGES)
    for prompt in ("перепишешь это исключение?", "можно это исключение покороче?", "поправь это исключение"):
        assert pointed(bank, prompt) == [], prompt
