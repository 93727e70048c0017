"""README's Benchmarks table is generated from the committed results file, and every MISS in it is explained."""

from __future__ import annotations

import json
import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import report  # noqa: E402

README = (REPO / "README.md").read_text(encoding="utf-8")
RESULTS = json.loads((REPO / "benchmarks" / "results.json").read_text(encoding="utf-8"))


def test_readme_shows_the_results_file_as_the_renderer_draws_it():
    regenerate = "python benchmarks/run.py --markdown benchmarks/results.json"
    assert report.markdown(RESULTS) in README, f"regenerate README's table: {regenerate}"


def test_every_row_of_the_results_file_has_a_value_target_and_status():
    for row in RESULTS["rows"]:
        assert set(row) >= {"measure", "unit", "values", "targets", "status"}, row
        assert row["status"] == report.status_of({int(s): v for s, v in row["values"].items()},
                                                 {int(s): t for s, t in row["targets"].items()}), row["measure"]


def test_every_miss_is_explained_after_the_table():
    explained = README[README.index(report.markdown(RESULTS)):]
    missing = [row["measure"] for row in RESULTS["rows"]
               if row["status"] == "MISS" and f"**{row['measure']}**" not in explained]
    assert not missing, f"README names no cause for: {missing}"
