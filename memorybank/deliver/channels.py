"""The delivery channels (§14.2): what each generated file or block says, within its token budget.

Every channel takes items in rank order and keeps the longest prefix that fits both its item limit
and its token budget (tokens of the whole file, marker included, or of the whole block, markers
included); the rest are dropped with reason `budget`. Always-on channels (A, and C's rules and
recipe triggers) leave out documents whose anchors are missing or drifted; the scoped channels
(B, D), the skill index (E) and the mirrors keep them, because they load only when the code they
govern is in play.

Choices the SPEC leaves open:
- C fills rules first, then recipe triggers; when the block is over budget, triggers go first
  (lowest-ranked first), then rules.
- A topic file with no recipe left, or channel A with no rule left, is not written (an old
  generated one is removed).
- D omits `applyTo` when no recipe of the topic names anchors or globs: an `applyTo: "**"` would
  turn a scoped file into an always-on one.
- YAML values in frontmatter are written plain when they read back unchanged, else double-quoted;
  `globs` is Cursor's comma-separated string and `applyTo` the same form for Copilot.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..lang import estimate_tokens
from ..parse import load_yaml
from ..usage import files_paragraph, usage_paragraph
from .files import block_text, stamp
from .sources import Selection, Source, dont_clause, sentence

RULES_FILE = ".cursor/rules/memorybank-rules.mdc"
CURSOR_TOPIC = ".cursor/rules/memorybank-{}.mdc"
COPILOT_TOPIC = ".github/instructions/memorybank-{}.instructions.md"
SKILL_FILE = ".claude/skills/memorybank/SKILL.md"
SHARED = {"agents": "AGENTS.md", "claude": "CLAUDE.md", "copilot": ".github/copilot-instructions.md",
          "gemini": "GEMINI.md", "junie": ".junie/guidelines.md"}
MIRRORS = (".trae/rules", ".qoder/rules")

A_BUDGET, A_RULES = 800, 15
B_BUDGET, B_RECIPES = 750, 5
C_BUDGET, C_RULES, C_TRIGGERS = 1500, 15, 10
E_BUDGET = 1500

# Where each target's generated files live, for removing stale ones: (folder, name prefix, suffix).
OWNED_PATTERNS = {
    "cursor": ((".cursor/rules", "memorybank-", ".mdc"),),
    "copilot": ((".github/instructions", "memorybank-", ".instructions.md"),),
    "mirror": tuple((folder, "memorybank-", ".md") for folder in MIRRORS),
}

# Targets whose agents load every file of one folder: an always-on file (channel C's text) plus,
# where the agent can scope a file to paths, one topic file per recipe topic (see `folder_outputs`).
FOLDERS = {"cline": ".clinerules", "windsurf": ".windsurf/rules", "roo": ".roo/rules", "kiro": ".kiro/steering"}
OWNED_PATTERNS.update({target: ((folder, "memorybank-", ".md"),) for target, folder in FOLDERS.items()})


@dataclass
class Output:
    """One generated file (owned) or managed block (shared) with its report.

    `content` is the full stamped text of an owned file, or the inner text of a block; None when
    the channel has nothing to deliver.
    """

    channel: str
    target: str
    file: str
    owned: bool
    content: str | None
    tokens: int
    budget: int | None
    kept: list[str] = field(default_factory=list)
    dropped: list[dict[str, str]] = field(default_factory=list)


def yaml_value(text: str) -> str:
    """`text` as a YAML scalar: plain when it reads back as the same string, else double-quoted."""
    try:
        if load_yaml(f"k: {text}") == {"k": text}:
            return text
    except Exception:  # any YAML error means: quote it
        pass
    return json.dumps(text, ensure_ascii=False)


def rule_line(rule: Source) -> str:
    """`- [scope] Do X. Do NOT Y.`"""
    head = f"- [{rule.scope}] " if rule.scope else "- "
    line = head + sentence(rule.do or "")
    if rule.dont:
        line += " Do NOT " + sentence(dont_clause(rule.dont))
    return line


def trigger_line(recipe: Source, bank_rel: str) -> str:
    """`- When X: read `bank/path.md` (Title).`"""
    where = f"`{_doc_path(bank_rel, recipe.path)}`"
    if recipe.when:
        return f"- When {_lower_first(recipe.when.rstrip('.'))}: read {where} ({recipe.title})."
    return f"- {recipe.title}: read {where}."


def _lower_first(text: str) -> str:
    if text[:5].lower() == "when ":
        text = text[5:]
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def _doc_path(bank_rel: str, path: str) -> str:
    return f"{bank_rel}/{path}" if bank_rel and bank_rel != "." else path


def _fit(items: Sequence[Source], render: Callable[[Sequence[Source]], str], budget: int,
         limit: int) -> tuple[int, str, int]:
    """The longest rank-order prefix within `limit` items and `budget` tokens: `(count, text, tokens)`."""
    text = render(items[:0])
    tokens = estimate_tokens(text)
    count = 0
    for k in range(1, min(limit, len(items)) + 1):
        candidate = render(items[:k])
        cost = estimate_tokens(candidate)
        if cost > budget:
            break
        count, text, tokens = k, candidate, cost
    return count, text, tokens


def _budget_drops(items: Sequence[Source], kept: int) -> list[dict[str, str]]:
    return [{"path": s.path, "reason": "budget"} for s in items[kept:]]


def _unfit_drops(items: Sequence[Source], unfit: dict[str, str]) -> list[dict[str, str]]:
    return [{"path": s.path, "reason": unfit[s.path]} for s in items if s.path in unfit]


def channel_a(selection: Selection, bank_rel: str, wired: bool = True) -> Output:
    """Always-on rules: one line per rule, top-ranked first; `bank_route` is named only when Cursor is wired."""
    fit = [r for r in selection.rules if r.path not in selection.unfit]
    reasons = "`bank_route` finds the reasons" if wired else "its documents give the reasons"

    def render(rules: Sequence[Source]) -> str:
        lines = ["---", "description: " + yaml_value("Project rules from the memory bank; always apply"),
                 "alwaysApply: true", "---", "", "# Project rules", "",
                 f"Compiled from the project's memory bank (`{bank_rel}/`); {reasons}.", ""]
        lines += [rule_line(r) for r in rules]
        return stamp("\n".join(lines) + "\n")

    count, text, tokens = _fit(fit, render, A_BUDGET, A_RULES)
    return Output("A", "cursor", RULES_FILE, True, text if count else None, tokens if count else 0, A_BUDGET,
                  [r.path for r in fit[:count]],
                  _unfit_drops(selection.rules, selection.unfit) + _budget_drops(fit, count))


def topics(selection: Selection) -> dict[str, list[Source]]:
    """Recipes by topic slug (sorted), each in rank order."""
    out: dict[str, list[Source]] = {}
    for recipe in selection.recipes:
        out.setdefault(recipe.topic_slug, []).append(recipe)
    return dict(sorted(out.items()))


def _recipe_body(recipe: Source, bank_rel: str) -> list[str]:
    lines = [f"### {recipe.title}"]
    for label, value in (("When", recipe.when), ("Do", recipe.do), ("Don't", recipe.dont), ("Why", recipe.why)):
        if value:
            lines.append(f"- **{label}**: {value}")
    if recipe.example and recipe.example[1]:
        language, skeleton = recipe.example
        lines += ["", f"```{language}", *skeleton, "```"]
    lines += ["", f"Source: `{_doc_path(bank_rel, recipe.path)}`", ""]
    return lines


def _topic_globs(recipes: Sequence[Source]) -> list[str]:
    return sorted({g for r in recipes for g in r.globs})


def _description(topic: str, recipes: Sequence[Source]) -> str:
    return f"Memory bank recipes for {topic}: " + "; ".join(r.title for r in recipes)


def topic_file(slug: str, recipes: list[Source], bank_rel: str, copilot: bool) -> Output:
    """Channel B (Cursor, `globs`) or D (Copilot, `applyTo`) for one topic."""
    topic = recipes[0].topic

    def render(kept: Sequence[Source]) -> str:
        globs = ",".join(_topic_globs(kept))
        head = ["---", "description: " + yaml_value(_description(topic, kept))]
        if copilot:
            if globs:
                head.append("applyTo: " + yaml_value(globs))
        else:
            head += ["globs: " + yaml_value(globs) if globs else "globs:", "alwaysApply: false"]
        lines = head + ["---", "", f"# Recipes: {topic}", "",
                        f"From the project's memory bank (`{bank_rel}/`).", ""]
        for recipe in kept:
            lines += _recipe_body(recipe, bank_rel)
        return stamp("\n".join(lines).rstrip("\n") + "\n")

    count, text, tokens = _fit(recipes, render, B_BUDGET, B_RECIPES)
    channel, target, name = ("D", "copilot", COPILOT_TOPIC) if copilot else ("B", "cursor", CURSOR_TOPIC)
    return Output(channel, target, name.format(slug), True, text if count else None, tokens if count else 0,
                  B_BUDGET, [r.path for r in recipes[:count]], _budget_drops(recipes, count))


def block_inner(selection: Selection, bank_rel: str,
                wired: bool = True) -> tuple[str, int, list[str], list[dict[str, str]]]:
    """Channel C's block: usage paragraph, rule lines, recipe triggers. Returns (inner, tokens, kept, dropped).

    `wired=False` (the agent has no memorybank server) swaps the tools paragraph for `files_paragraph`.
    """
    rules = [r for r in selection.rules if r.path not in selection.unfit]
    recipes = [r for r in selection.recipes if r.path not in selection.unfit]
    usage = usage_paragraph(bank_rel, long=True) if wired else files_paragraph(bank_rel)

    def inner(kept_rules: Sequence[Source], kept_recipes: Sequence[Source]) -> str:
        lines = [usage]
        if kept_rules:
            lines += ["", "### Project rules", "", *(rule_line(r) for r in kept_rules)]
        if kept_recipes:
            lines += ["", "### Recipes", "", *(trigger_line(r, bank_rel) for r in kept_recipes)]
        return "\n".join(lines) + "\n"

    n_rules, _, _ = _fit(rules, lambda k: block_text(inner(k, ())), C_BUDGET, C_RULES)
    n_recipes, text, tokens = _fit(recipes, lambda k: block_text(inner(rules[:n_rules], k)), C_BUDGET, C_TRIGGERS)
    dropped = (_unfit_drops(selection.rules, selection.unfit) + _budget_drops(rules, n_rules)
               + _unfit_drops(selection.recipes, selection.unfit) + _budget_drops(recipes, n_recipes))
    kept = [r.path for r in rules[:n_rules]] + [r.path for r in recipes[:n_recipes]]
    return inner(rules[:n_rules], recipes[:n_recipes]), tokens, kept, dropped


def skill_file(selection: Selection, bank_rel: str, wired: bool = True) -> Output:
    """Channel E: when and how to use the bank, and an index of recipes by topic."""
    usage = usage_paragraph(bank_rel, long=True) if wired else files_paragraph(bank_rel)
    ranked = list(selection.recipes)

    def render(kept: Sequence[Source]) -> str:
        names = sorted({r.topic_slug: r.topic for r in kept}.items())
        about = (f"The project's memory bank ({bank_rel}/): decisions, domain rules, conventions"
                 + (" and recipes for " + ", ".join(t for _, t in names) if names else "")
                 + ". Use it before changing code or answering why the project works the way it does.")
        lines = ["---", "name: memorybank", "description: " + yaml_value(about), "---", "", usage]
        if kept:
            lines += ["", "## Recipes by topic"]
            for slug, topic in names:
                lines += ["", f"### {topic}", ""]
                for r in kept:
                    if r.topic_slug == slug:
                        when = f" — when {_lower_first(r.when.rstrip('.'))}" if r.when else ""
                        lines.append(f"- {r.title}{when}: `{_doc_path(bank_rel, r.path)}`")
        return stamp("\n".join(lines) + "\n")

    count, text, tokens = _fit(ranked, render, E_BUDGET, len(ranked))
    return Output("E", "skill", SKILL_FILE, True, text, tokens, E_BUDGET, [r.path for r in ranked[:count]],
                  _budget_drops(ranked, count))


def mirror(source: Output) -> list[Output]:
    """Copies of one A/B file as `.md` under each mirror folder."""
    name = source.file.rpartition("/")[2].removesuffix(".mdc") + ".md"
    return [Output("mirror", "mirror", f"{folder}/{name}", True, source.content, source.tokens, None,
                   list(source.kept), list(source.dropped)) for folder in MIRRORS]


def _always_head(target: str) -> list[str]:
    """Frontmatter that makes a folder target's main file always-on (Cline and Roo load any file without one)."""
    if target == "windsurf":
        return ["---", "trigger: always_on", "---", ""]
    if target == "kiro":
        return ["---", "inclusion: always", "---", ""]
    return []


def _scoped_head(target: str, topic: str, slug: str, recipes: Sequence[Source]) -> list[str] | None:
    """Each agent's current way to load a file only for matching paths; None when it has none for this topic.

    Cline: `paths:` (a list); Windsurf: `trigger: glob` with comma-separated `globs` (without globs,
    `model_decision` and a description); Kiro: `inclusion: fileMatch` with `fileMatchPattern` (a
    string, or a list for several; without globs, `auto` with name and description). Roo has no
    scoping: recipes stay in the always-on file's triggers.
    """
    globs = _topic_globs(recipes)
    about = yaml_value(_description(topic, recipes))
    if target == "cline":
        return ["---", "paths:", *(f"  - {yaml_value(g)}" for g in globs), "---", ""] if globs else None
    if target == "windsurf":
        if globs:
            return ["---", "trigger: glob", "globs: " + yaml_value(",".join(globs)), "---", ""]
        return ["---", "trigger: model_decision", "description: " + about, "---", ""]
    if target == "kiro":
        if globs:
            pattern = yaml_value(globs[0]) if len(globs) == 1 else json.dumps(globs, ensure_ascii=False)
            return ["---", "inclusion: fileMatch", "fileMatchPattern: " + pattern, "---", ""]
        return ["---", "inclusion: auto", "name: " + yaml_value(f"memorybank-{slug}"),
                "description: " + about, "---", ""]
    return None


def folder_outputs(selection: Selection, target: str, bank_rel: str, wired: bool) -> list[Output]:
    """A folder target's files: `memorybank-rules.md` (always on: usage, rules, triggers) and scoped topics."""
    folder = FOLDERS[target]
    inner, tokens, kept, dropped = block_inner(selection, bank_rel, wired)
    has_items = bool(kept)
    main = stamp("\n".join(_always_head(target)) + ("\n" if _always_head(target) else "") + inner)
    out = [Output("C", target, f"{folder}/memorybank-rules.md", True, main if has_items else None,
                  estimate_tokens(main) if has_items else 0, C_BUDGET, list(kept), [dict(d) for d in dropped])]
    for slug, recipes in topics(selection).items():
        topic = recipes[0].topic

        def render(chosen: Sequence[Source], topic: str = topic, slug: str = slug) -> str:
            head = _scoped_head(target, topic, slug, chosen) or []
            lines = [*head, f"# Recipes: {topic}", "", f"From the project's memory bank (`{bank_rel}/`).", ""]
            for recipe in chosen:
                lines += _recipe_body(recipe, bank_rel)
            return stamp("\n".join(lines).rstrip("\n") + "\n")

        scoped = _scoped_head(target, topic, slug, recipes) is not None
        count, text, cost = _fit(recipes, render, B_BUDGET, B_RECIPES) if scoped else (0, "", 0)
        out.append(Output("B", target, f"{folder}/memorybank-{slug}.md", True, text if count else None,
                          cost if count else 0, B_BUDGET, [r.path for r in recipes[:count]],
                          _budget_drops(recipes, count) if scoped else []))
    return out


def render_all(selection: Selection, targets: Sequence[str], bank_rel: str,
               wired: Sequence[str] | None = None) -> list[Output]:
    """Every output of the enabled targets, in a fixed order (A, B…, C…, D…, E, mirrors, folder targets).

    `wired` names the targets whose agent has the memorybank server (None: all); the others' text
    names no MCP tool.
    """
    out: list[Output] = []
    rules = channel_a(selection, bank_rel, wired is None or "cursor" in wired)
    cursor_topics = [topic_file(slug, items, bank_rel, copilot=False) for slug, items in topics(selection).items()]
    if "cursor" in targets:
        out += [rules, *cursor_topics]
    shared = [t for t in SHARED if t in targets]
    for target in shared:
        inner, tokens, kept, dropped = block_inner(selection, bank_rel, wired is None or target in wired)
        out.append(Output("C", target, SHARED[target], False, inner, tokens, C_BUDGET, list(kept),
                          [dict(d) for d in dropped]))
    if "copilot" in targets:
        out += [topic_file(slug, items, bank_rel, copilot=True) for slug, items in topics(selection).items()]
    if "skill" in targets:
        out.append(skill_file(selection, bank_rel, wired is None or "skill" in wired))
    if "mirror" in targets:
        for source in [rules, *cursor_topics]:
            out += mirror(source)
    for target in FOLDERS:
        if target in targets:
            out += folder_outputs(selection, target, bank_rel, wired is None or target in wired)
    return out
