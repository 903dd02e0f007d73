"""The figure screen: a figure full-size where the terminal can draw images, else its caption with save/open."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import ClassVar, cast

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, Static
from textual.worker import get_current_worker

from normcli import results as r
from normcli.errors import NormcliError
from normcli.tui.errors import ReportsWorkerErrors
from normcli.tui.library import Location
from normcli.tui.widgets.key_bar import KeyBar


def graphics_protocol() -> str | None:
    """`sixel` or `kitty` when textual-image found one on this terminal, else None."""
    import sys

    renderable = sys.modules.get("textual_image.renderable")  # imported (terminal asked) by `browse` only when worth it
    if renderable is None:
        return None
    name = renderable.Image.__module__.rsplit(".", 1)[-1]
    return {"sixel": "sixel", "tgp": "kitty"}.get(name)


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height in pixels, when Pillow can read the image."""
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:
        return None


def halfcell_preview(data: bytes, columns: int, rows: int) -> Text | None:
    """A low-resolution preview any colour terminal can show: two pixels per cell, with `▀`."""
    try:
        from PIL import Image
    except ImportError:
        return None
    try:
        with Image.open(io.BytesIO(data)) as opened:
            image = opened.convert("RGB")
    except Exception:
        return None
    columns, rows = max(columns, 8), max(rows, 4)
    scale = min(columns / image.width, (rows * 2) / image.height)
    width, height = max(1, int(image.width * scale)), max(2, int(image.height * scale) // 2 * 2)
    pixels = image.resize((width, height)).load()
    assert pixels is not None  # loaded from an image in memory
    text = Text()
    for y in range(0, height, 2):
        for x in range(width):
            top, bottom = cast("tuple[int, int, int]", pixels[x, y]), cast("tuple[int, int, int]", pixels[x, y + 1])
            text.append("▀", style=f"rgb({top[0]},{top[1]},{top[2]}) on rgb({bottom[0]},{bottom[1]},{bottom[2]})")
        if y + 2 < height:
            text.append("\n")
    return text


def open_with_system_viewer(path: Path) -> None:
    """Hand a file to the desktop's viewer (`open`, `xdg-open` or the Windows shell)."""
    if sys.platform == "darwin":
        subprocess.Popen(["open", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elif os.name == "nt":
        os.startfile(str(path))  # type: ignore[attr-defined]
    else:
        subprocess.Popen(["xdg-open", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


class FigureScreen(ReportsWorkerErrors, Screen[None]):
    """One figure of a section; n/p walk the section's figures."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f", "close", "Back"),
        Binding("n,right", "step(1)", "Next figure"),
        Binding("p,left", "step(-1)", "Previous figure"),
        Binding("s", "save", "Save as…"),
        Binding("o", "open_viewer", "Open in viewer"),
    ]
    """Back to the text, walk the figures, save the image or open it in the system viewer."""

    AUTO_FOCUS = ""

    def __init__(self, location: Location, figures: tuple[r.FigureRef, ...], start: int = 0) -> None:
        super().__init__()
        self.location = location
        self.figures = figures
        self.position = start
        self.result: r.FigureResult | None = None

    def compose(self) -> ComposeResult:
        """Caption on top, the image (or what to do instead) below."""
        with Vertical(id="figure-page"):
            yield Label("", id="figure-caption")
            yield Vertical(id="figure-body")
            with Center():
                yield Input(placeholder="save to…", id="figure-save")
        yield KeyBar()

    def on_mount(self) -> None:
        """Load the first figure."""
        self._load(self.figures[self.position].id)

    @work(thread=True, exclusive=True, group="figure", exit_on_error=False)
    def _load(self, figure_id: str) -> None:
        try:
            result = self.app.library.figure(self.location, figure_id)  # type: ignore[attr-defined]
        except NormcliError as error:
            self.app.call_from_thread(self._failed, error.one_line())
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show, result)  # type: ignore[arg-type]  # an async callback is awaited

    def _failed(self, message: str) -> None:
        self.query_one("#figure-caption", Label).update(message)

    async def _show(self, result: r.FigureResult) -> None:
        self.result = result
        count = f"  ({self.position + 1}/{len(self.figures)})" if len(self.figures) > 1 else ""
        self.query_one("#figure-caption", Label).update(f"{result.caption}{count}")
        body = self.query_one("#figure-body", Vertical)
        await body.remove_children()
        size = image_size(result.data)
        facts = f"{result.mime_type}, {len(result.data):,} bytes" + (f", {size[0]}×{size[1]} px" if size else "")
        protocol = graphics_protocol()
        if protocol is not None:
            from textual_image.widget import Image

            await body.mount(Image(io.BytesIO(result.data), id="figure-image"))
            await body.mount(
                Static(f"{result.path} · {facts} · s: save · o: open in the system viewer", classes="figure-note", markup=False)
            )
        else:
            note = (
                f"{result.path} · {facts}\n"
                "This terminal cannot draw images at full resolution (no sixel or kitty graphics; "
                "NORMCLI_IMAGES=1 asks anyway): s saves the figure, o opens it in the system viewer."
            )
            await body.mount(Static(note, classes="figure-note", markup=False))
            preview = halfcell_preview(result.data, self.size.width - 2, self.size.height - 9)
            if preview is not None:
                await body.mount(Static(preview, id="figure-preview"))

    def action_step(self, step: int) -> None:
        """The next or previous figure of the section."""
        if len(self.figures) < 2:
            return
        self.position = (self.position + step) % len(self.figures)
        self._load(self.figures[self.position].id)

    def action_save(self) -> None:
        """Ask where to save the image file."""
        if self.result is None:
            return
        box = self.query_one("#figure-save", Input)
        box.value = str(Path.cwd() / Path(self.result.path).name)
        box.display = True
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Write the image where the user said."""
        event.stop()
        if self.result is None:
            return
        target = Path(event.value).expanduser()
        try:
            if target.is_dir():
                target = target / Path(self.result.path).name
            target.write_bytes(self.result.data)
        except OSError as error:
            self.notify(f"Cannot save to {target}: {error.strerror or error}", severity="error")
            return
        event.input.display = False
        self.notify(f"Saved {target}")

    def action_open_viewer(self) -> None:
        """Write the image to a temporary file and open it with the system viewer."""
        if self.result is None:
            return
        suffix = Path(self.result.path).suffix or ".png"
        handle, name = tempfile.mkstemp(prefix="normcli-figure-", suffix=suffix)
        with os.fdopen(handle, "wb") as stream:
            stream.write(self.result.data)
        try:
            open_with_system_viewer(Path(name))
        except OSError as error:
            self.notify(f"No system viewer could open {name}: {error}", severity="error")
            return
        self.notify(f"Opened {self.result.figure_id} in the system viewer ({name})")

    def action_close(self) -> None:
        """Back to the text (escape first hides the save box)."""
        box = self.query_one("#figure-save", Input)
        if box.display and box.has_focus:
            box.display = False
            return
        self.app.pop_screen()
