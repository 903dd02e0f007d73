"""The bottom line of keys: what Textual's Footer shows, drawn as one widget.

Textual's Footer mounts a widget per key (two styled parts each) and mounts them all again whenever
the focus moves; at start-up that was half of all the styling work of the first screen. This bar
draws the same keys as one line of text, redrawn (not re-mounted) when the bindings change.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget


class KeyBar(Widget):
    """The keys that apply now (those of the widget with the keyboard first), each clickable, with its tooltip on hover."""

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-description-foreground;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._content = Content("")
        self._spans: list[tuple[int, int, str, str]] = []  # (start, end, key, tooltip) of each key on the line

    def on_mount(self) -> None:
        """Follow the screen's bindings."""
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._draw()

    def on_unmount(self) -> None:
        """Stop following them."""
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._draw)  # the focus may move several times before the next frame

    def keys(self) -> list[tuple[Binding, bool, str]]:
        """The shown bindings that apply now, one per action, in the order the focus chain gives them."""
        seen: set[str] = set()
        found: list[tuple[Binding, bool, str]] = []
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                found.append((binding, enabled, tooltip or binding.tooltip or binding.description))
        return found

    def _draw(self) -> None:
        parts: list[tuple[str, str] | str] = []
        spans: list[tuple[int, int, str, str]] = []
        position = 0
        found = self.keys()
        for binding, enabled, tooltip in found:
            key = f" {self.app.get_key_display(binding)} "
            label = f"{binding.description} "
            dim = "" if enabled else " dim"
            parts += [(key, f"bold $footer-key-foreground{dim}"), (label, dim.strip() or "")]
            spans.append((position, position + len(key) + len(label), binding.key, tooltip))
            position += len(key) + len(label)
        palette = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is not None and self.app.ENABLE_COMMAND_PALETTE and palette.binding.action not in {b.action for b, _, _ in found}:
            key, label = f" {self.app.get_key_display(palette.binding)} ", "Palette "
            parts += [(key, "bold $footer-key-foreground"), (label, "")]
            spans.append((position, position + len(key) + len(label), palette.binding.key, "command palette"))
        self._content = Content.assemble(*parts)
        self._spans = spans
        self.refresh()

    def render(self) -> Content:
        """The line of keys."""
        return self._content

    @property
    def text(self) -> str:
        """The line as plain text (what the tests read)."""
        return self._content.plain

    def _key_at(self, x: int) -> tuple[str, str] | None:
        return next(((key, tooltip) for start, end, key, tooltip in self._spans if start <= x < end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """The tooltip of the key under the mouse."""
        found = self._key_at(event.x)
        self.tooltip = found[1] if found else None

    def on_click(self, event: events.Click) -> None:
        """A click on a key presses it."""
        found = self._key_at(event.x)
        if found:
            event.stop()
            self.app.simulate_key(found[0])
