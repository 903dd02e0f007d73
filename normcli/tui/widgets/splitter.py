"""The edge between the tree and the text: drag it with the mouse to make the tree wider or narrower."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widget import Widget


class Splitter(Widget):
    """A one-column bar; dragging it asks for the tree to be `width` columns wide."""

    DEFAULT_CSS = """
    Splitter {
        width: 1;
        height: 1fr;
        background: $foreground 10%;
    }
    Splitter:hover, Splitter.-dragging {
        background: $accent;
    }
    """

    class Dragged(Message):
        """The splitter was dragged to screen column `x`."""

        def __init__(self, x: int) -> None:
            super().__init__()
            self.x = x

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tooltip = "drag to widen or narrow the tree (or press < and >)"

    def render(self) -> str:
        """Nothing but the bar's colour."""
        return ""

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """Start dragging."""
        self.capture_mouse()
        self.add_class("-dragging")
        event.stop()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Follow the mouse while the button is down."""
        if self.has_class("-dragging"):
            self.post_message(self.Dragged(event.screen_x))
            event.stop()

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """Stop dragging."""
        if self.has_class("-dragging"):
            self.release_mouse()
            self.remove_class("-dragging")
            self.post_message(self.Dragged(event.screen_x))
            event.stop()
