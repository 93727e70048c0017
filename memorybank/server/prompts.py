"""The five prompts (§11.3), written short: each tells the agent which tools to use, in order."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Prompt:
    name: str
    description: str
    arguments: tuple[tuple[str, str, bool], ...]
    template: str

    def render(self, args: dict[str, str]) -> str:
        values = {name: args.get(name, "").strip() or "(not given)" for name, _, _ in self.arguments}
        return self.template.format(**values)


PROMPTS = (
    Prompt("session-start", "Project briefing from the bank.", (),
           "Read memorybank://index, then call bank_changed with since=HEAD~10. Report in four short parts: "
           "the project in two sentences; what is in flight (features not done); the latest decisions (ADRs); "
           "open items (validation errors, _inbox notes). Read only what you need with bank_read by section, "
           "and end by listing what you did not read."),
    Prompt("route-then-read", "Answer from the bank.", (("question", "", True),),
           "Question: {question}\nCall bank_route with the question as asked. Read the top documents with "
           "bank_read, one section at a time where a section is suggested. If routing finds nothing, try "
           "bank_search for the literal words. Never cat or grep bank files. Answer with the paths you used."),
    Prompt("check-before-commit", "Validate and explain fixes.", (),
           "Call bank_validate. For each finding, give the smallest fix in one line (which file, which field, "
           "what value). Group by file. Do not change anything until I agree."),
    Prompt("record-adr", "Draft an ADR.", (("topic", "The decision.", True),),
           "Decision: {topic}\nCall bank_route for the topic to find the documents it rests on and any ADR it "
           "supersedes. Then call bank_create with doc_kind adr, status draft, derived_from those documents "
           "and dry_run true; show me the result, and create it for real only when I confirm."),
    Prompt("review-inbox", "Triage _inbox notes.", (),
           "Read memorybank://inbox. For each note, oldest first, propose one of: promote it (bank_promote to a "
           "path you suggest), fold it into its owner (bank_update_section, then bank_discard), or drop it "
           "(bank_discard with a reason). Act on a note only after I say which."),
)
BY_NAME = {p.name: p for p in PROMPTS}
