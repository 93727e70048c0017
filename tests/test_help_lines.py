"""`mcp-memorybank --help` lists every command with a whole sentence, never one cut inside parentheses."""

from __future__ import annotations

from conftest import run_cli


def test_every_command_line_is_a_whole_sentence() -> None:
    done = run_cli("--help")
    assert done.returncode == 0, done.stderr
    listed: list[str] = []
    for line in done.stdout.split("Commands:\n", 1)[1].split("\n\n", 1)[0].splitlines():
        if line.startswith("   "):  # click wraps a long line under its summary column
            listed[-1] += " " + line.strip()
        else:
            listed.append(line)
    assert len(listed) > 20
    for line in listed:
        name, summary = line.split(None, 1)
        assert summary.count("(") == summary.count(")"), line
        assert summary.endswith((".", ")")), line
