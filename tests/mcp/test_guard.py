"""The reading budget on its own: counting, idle pauses, repeats, and the `[mcp]` settings."""

from __future__ import annotations

from pathlib import Path

from normcli.mcp.guard import BudgetGuard, McpSettings, read_mcp_settings


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_long_pause_means_the_agent_answered() -> None:
    clock = Clock()
    guard = BudgetGuard(McpSettings(read_budget=2, idle_reset=60), clock)
    for number in range(3):
        notes = guard.record("get_section", {"path": f"4.{number}"}, {"n": number})
        clock.now += 5
    assert notes.reads == 3 and notes.lines
    clock.now += 61
    notes = guard.record("get_section", {"path": "5"}, {"n": 5})
    assert notes.reads == 1 and not notes.lines


def test_idle_reset_zero_never_resets() -> None:
    clock = Clock()
    guard = BudgetGuard(McpSettings(idle_reset=0), clock)
    guard.record("get_toc", {"code": "A"}, 1)
    clock.now += 10_000
    assert guard.record("get_toc", {"code": "B"}, 2).reads == 2


def test_a_repeat_is_noted_only_while_the_result_is_the_same() -> None:
    guard = BudgetGuard(McpSettings())
    guard.record("get_section", {"code": "SIA 261", "path": "4.2.1"}, {"text": "old"})
    changed = guard.record("get_section", {"code": "SIA 261", "path": "4.2.1"}, {"text": "new"})
    same = guard.record("get_section", {"path": "4.2.1", "code": "SIA 261", "edition": None}, {"text": "new"})
    assert not changed.repeated
    assert same.repeated and "repeats call #2" in same.lines[0]


def test_the_reminder_names_the_budget_in_force() -> None:
    guard = BudgetGuard(McpSettings(audit=True, audit_budget=1))
    guard.record("get_toc", {"code": "A"}, 1)
    notes = guard.record("get_toc", {"code": "B"}, 2)
    assert notes.meta() == {"reads": 2, "budget": 1, "repeated": False}
    assert "audit budget: 1" in notes.lines[0]


def test_settings_come_from_the_mcp_table(tmp_path: Path) -> None:
    (tmp_path / "normcli.toml").write_text(
        'name = "x"\n[mcp]\nread_budget = 6\naudit_budget = 12\naudit = true\nidle_reset = 30\n', encoding="utf-8"
    )
    settings = read_mcp_settings(tmp_path)
    assert (settings.read_budget, settings.audit_budget, settings.audit, settings.idle_reset, settings.budget) == (6, 12, True, 30.0, 12)
    assert settings.problems == ()


def test_bad_settings_fall_back_to_the_defaults_and_say_why(tmp_path: Path) -> None:
    (tmp_path / "normcli.toml").write_text(
        '[mcp]\nread_budget = 0\naudit_budget = "many"\naudit = "yes"\nidle_reset = -1\n', encoding="utf-8"
    )
    settings = read_mcp_settings(tmp_path)
    assert settings == McpSettings(problems=settings.problems)
    assert len(settings.problems) == 4
    (tmp_path / "normcli.toml").write_text("[mcp\n", encoding="utf-8")
    assert read_mcp_settings(tmp_path).problems
    assert read_mcp_settings(tmp_path / "nowhere") == McpSettings()


def test_the_reminder_after_spec_reads_names_endpoints_not_clauses() -> None:
    """An agent walking an API spec is asked to answer naming endpoints; a norm's clauses are cited as [CODE, path, p. N]."""
    guard = BudgetGuard(McpSettings(read_budget=1, idle_reset=0), Clock())
    guard.record("spec_list", {}, {"specs": []})
    [spec_note] = guard.record("search_specs", {"keyword": "pets"}, {"hits": []}).lines
    assert "METHOD /path" in spec_note and "[CODE, path, p. N]" not in spec_note
    [norm_note] = guard.record("get_section", {"code": "SIA 261", "path": "4"}, {"n": 1}).lines
    assert "[CODE, path, p. N]" in norm_note and "endpoint" not in norm_note
