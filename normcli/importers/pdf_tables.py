"""Tables in a PDF's text: from the rules drawn around and inside them (grids, booktabs rules) when there
are any, else from columns of text aligned by whitespace; anchored on their captions (`Table 2.1:`).

The stream is the document's lines in reading order (`pdf_pages.Line`); a table takes some of its
positions (its rows and caption), which are then written as one pipe table instead of text. What
does not fit a table stays text: no text is lost.
"""

from __future__ import annotations

import bisect
import itertools
import re
import statistics
from dataclasses import dataclass, field

from normcli.importers.common import FIGURE_CAPTION, LINE_END_HYPHEN, TABLE_CAPTION, clean_inline
from normcli.importers.pdf_pages import TABLE_RULE, Line, Page
from normcli.labels import TABLE_CAPTION_LABEL

Box = tuple[float, float, float, float]  # left, bottom, right, top in PDF points


@dataclass
class Table:
    """A table found in the stream: its caption's position, the positions of its rows, its cells."""

    caption: int | None
    positions: list[int]
    rows: list[list[str]]
    header: bool
    left: float = 0.0  # the horizontal extent of its rows (a table cut by a page break goes on at the same place)
    right: float = 0.0
    ruled: bool = False  # read from rules
    open_end: bool = False  # ruled, and its rows run on to the foot of the page with no closing rule
    walls: tuple[float, ...] = ()  # its inner vertical rules, from its left edge
    caption_more: list[int] = field(default_factory=list)  # the lines its caption goes on over
    starts: tuple[float, ...] = ()  # the x where its columns start (a part on the next page starts them there again)
    extent: tuple[float, float] | None = None  # bottom and top of its ruled region (a picture in a cell may stand clear of its text)

    @property
    def first(self) -> int:
        """The stream position where the table is written (its caption comes first, SPEC §2)."""
        return min([*self.positions, *([self.caption] if self.caption is not None else [])])


@dataclass
class _Block:
    """A ruled region of a page: the rules that frame and divide a table."""

    page: int
    left: float
    bottom: float
    right: float
    top: float
    hs: list[float]  # the heights of its horizontal rules, top to bottom
    vs: list[float]  # the x of its inner vertical rules, left to right
    used: bool = False
    open_end: bool = False
    fold: float | None = None  # where the second half begins, in a table set in two halves side by side
    closed: bool = False  # rules at both sides run down to its last rule: a box, shut at its foot


def find_tables(
    stream: list[Line],
    pages: dict[int, Page],
    headings: dict,
    figure_text: set[int],
    figure_regions: dict[int, Box],
) -> dict[int, list[Table]]:
    """Every table of the document, keyed by the stream position where it is written.

    A caption (`Table 2.1:`) takes the ruled region next to it, else the lines next to it that cut into
    cells (on the side where the document puts its tables; a short note may stand between), else one line
    next to it cut into four cells or more, else a run of `name = value` lines, else a list of terms framed
    by two rules under it. Without a caption, a ruled grid (inner vertical rules) or a run of three or more
    lines cut into the same columns is a table. A ruled table cut by a page break is joined with its other part."""
    toc_pages = {index for index, page in pages.items() if page.toc}
    used: set[int] = set(figure_text)  # labels inside a figure are part of its picture
    on_page: dict[int, list[int]] = {}
    for position, line in enumerate(stream):
        on_page.setdefault(line.page, []).append(position)
    for index, page in pages.items():
        if page.hrules and not page.toc:
            used.update(_other_floats(page, stream, on_page.get(index, [])))
    figures_on: dict[int, list[Box]] = {}
    for position, region in figure_regions.items():
        figures_on.setdefault(stream[position].page, []).append(region)
    blocks = {
        index: _blocks(page, [stream[p] for p in on_page.get(index, [])]) for index, page in pages.items() if page.hrules and not page.toc
    }
    tables: list[Table] = []
    captions = [p for p, line in enumerate(stream) if line.page not in toc_pages and _is_caption(clean_inline(line.text))]
    after = sum(1 for p in captions if len(_rows(stream, p, 1, headings, used)) >= 2)
    before = sum(1 for p in captions if len(_rows(stream, p, -1, headings, used)) >= 2)
    sides = (-1, 1) if before > after else (1, -1)
    pending = []
    ruled: set[int] = set()  # lines taken by ruled tables: two tables side by side share their lines
    more = {position: _caption_more(stream, position, headings, used, blocks.get(stream[position].page, [])) for position in captions}
    for position in captions:  # ruled tables first: their rules say exactly which lines are theirs
        caption = stream[position]
        last = stream[more[position][-1]] if more[position] else caption
        block = _block_at_caption(blocks.get(caption.page, []), caption, last, sides[0])
        if block is None and caption.page in blocks:
            block = _block_under_subcaptions(blocks[caption.page], caption, last, [stream[p] for p in on_page[caption.page]])
        if block is not None:
            block = _with_other_half(block, blocks[caption.page], caption, [stream[p] for p in on_page[caption.page]])
        taken = used - ruled
        table = _block_table(block, stream, on_page[caption.page], headings, taken, blocks[caption.page], captioned=True) if block else None
        if table is None:
            pending.append(position)
            continue
        table.caption = position
        table.caption_more = more[position]
        used.update([position, *more[position]])
        used.update(table.positions)
        ruled.update(table.positions)
        tables.append(table)
    for position in pending:
        after = more[position][-1] if more[position] else position
        rows = sorted(_rows(stream, position, sides[0], headings, used, after))
        if len(rows) < 2:
            rows = sorted(_rows(stream, position, sides[1], headings, used, after))
        if len(rows) < 2:
            rows = _one_row(stream, position, after, sides[0], headings, used)
        if rows:
            row_lines = [stream[k] for k in rows]
            cells = _table_cells(row_lines)
            table = Table(position, rows, cells, _has_header(cells, row_lines), *_extent(row_lines), starts=_line_starts(row_lines))
        else:
            index = stream[position].page
            table = _key_values(stream, position, sides, headings, used) or _framed_entries(
                stream, position, after, pages[index], on_page[index], headings, used
            )
        if table is not None:
            if not set(table.positions) & set(more[position]):
                table.caption_more = more[position]
            used.update(table.positions)
            used.update([position, *table.caption_more])
            tables.append(table)
    shaded: set[int] = set()  # the boxes of rows: what paints their ground (bands every few rows) is no picture
    for index, page_blocks in blocks.items():  # ruled grids without a caption
        here = [stream[p] for p in on_page.get(index, [])]
        boxed = [block for block in page_blocks if _boxed_rows(block, here)]  # before the rules inside them
        for block in [*boxed, *(block for block in page_blocks if block not in boxed)]:
            if block.used or not _uncaptioned_block(block, figures_on.get(index, []), block in boxed):
                continue
            if _over_figure_caption(block, here, figures_on.get(index, [])):  # its labels are the picture's, as a figure's are
                used.update(p for p in on_page.get(index, []) if _inside(stream[p], block))
                continue
            table = _block_table(block, stream, on_page.get(index, []), headings, used - ruled, page_blocks)
            if table is not None and len(table.rows) >= 2:
                used.update(table.positions)
                ruled.update(table.positions)
                tables.append(table)
                if block in boxed:
                    shaded.add(id(table))
                    for other in page_blocks:  # rules between groups of its rows make no table of their own
                        other.used = other.used or (
                            block.left - 2 <= other.left
                            and other.right <= block.right + 2
                            and block.bottom - 2 <= other.bottom
                            and other.top <= block.top + 2
                        )
    position = 0
    while position < len(stream):
        rows = _aligned_rows(stream, position, headings, used, toc_pages, pages)
        row_lines = [stream[k] for k in rows]
        cells = _table_cells(row_lines) if len(rows) >= 3 else []
        if cells and _headed(cells, row_lines):
            used.update(rows)
            header = _has_header(cells, row_lines) or _centred_over(row_lines[0].spans, row_lines[1].spans)
            tables.append(Table(None, rows, cells, header, *_extent(row_lines), starts=_line_starts(row_lines)))
            position = rows[-1] + 1
        else:  # a list of terms and their descriptions is one in all its parts: no table starts on its second row
            position = rows[-1] + 1 if cells else position + 1
    last_page = max((page.printed for page in pages.values()), default=0)
    tables = [
        table
        for table in tables
        if table.caption is not None
        or not (
            _list_not_table(table, pages[stream[table.first].page], last_page)
            or (
                id(table) not in shaded
                and _pictured(table, pages[stream[table.first].page], stream, on_page) >= _PICTURED
                and not _labelled_rows(table)
            )
            or _text_in_columns(table.rows, [stream[position] for position in table.positions])
            or (not table.ruled and _numbered_listing([stream[position] for position in sorted(table.positions)]))
            or _not_records(table, [stream[position] for position in sorted(table.positions)])
        )
    ]
    tables = _join_page_breaks(tables, stream, on_page, used)
    found: dict[int, list[Table]] = {}
    for table in sorted(tables, key=lambda table: (table.first, table.left)):
        found.setdefault(table.first, []).append(table)
    return found


# -- ruled tables ---------------------------------------------------------------------------------


def _blocks(page: Page, lines: list[Line]) -> list[_Block]:
    """The ruled regions of a page: rules that touch one another (a grid), and runs of horizontal rules
    of the same width with table rows between them (booktabs: top, middle and bottom rules)."""
    hs = [rule for rule in page.hrules if rule[1] - rule[0] >= TABLE_RULE]
    vs = page.vrules
    parent = list(range(len(hs) + len(vs)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i, (x0, x1, y) in enumerate(hs):
        for j, (x, y0, y1) in enumerate(vs):
            if x0 - 2 <= x <= x1 + 2 and y0 - 2 <= y <= y1 + 2:
                parent[root(i)] = root(len(hs) + j)
    groups: dict[int, list[int]] = {}
    for k in range(len(parent)):
        groups.setdefault(root(k), []).append(k)
    blocks: list[_Block] = []
    lone: list[tuple[float, float, float]] = []
    for members in groups.values():
        flat = [hs[k] for k in members if k < len(hs)]
        upright = [vs[k - len(hs)] for k in members if k >= len(hs)]
        if not upright:
            lone.extend(flat)
            continue
        if not flat:
            continue
        left, right = min(r[0] for r in flat), max(r[1] for r in flat)
        # the vertical rules may reach past the horizontal ones (a header row with no rule over it)
        bottom = min(min(r[2] for r in flat), min(r[1] for r in upright))
        top = max(max(r[2] for r in flat), max(r[2] for r in upright))
        heights = sorted({r[2] for r in flat} | {bottom, top}, reverse=True)
        heights = [y for k, y in enumerate(heights) if k == 0 or heights[k - 1] - y > 2]
        if len(heights) < 2 or _too_low(heights):
            continue
        inner = sorted({round(x, 1) for x, _, _ in upright if left + 4 < x < right - 4})
        sides = [x for x, low, _ in upright if low <= heights[-1] + 2 and (x <= left + 4 or x >= right - 4)]
        closed = bool(sides) and min(sides) <= left + 4 and max(sides) >= right - 4
        blocks.append(_Block(page.index, left, heights[-1], right, heights[0], heights, _distinct(inner), closed=closed))
    # booktabs: horizontal rules of one width, each band between two of them holding table rows
    lone.sort(key=lambda rule: -rule[2])
    taken: set[int] = set()
    for i, rule in enumerate(lone):
        if i in taken:
            continue
        chain = [rule]
        for j in range(i + 1, len(lone)):
            other = lone[j]
            if j in taken or abs(other[0] - rule[0]) > 4 or abs(other[1] - rule[1]) > 4:
                continue
            if not _table_band(lines, rule[0], rule[1], other[2], chain[-1][2]) and not _row_between_rows(lines, lone, chain, j):
                break
            chain.append(other)
            taken.add(j)
        if len(chain) >= 2 and not _too_low([r[2] for r in chain]):
            blocks.append(_Block(page.index, rule[0], chain[-1][2], rule[1], rule[2], [r[2] for r in chain], []))
    lowest = min((block.bottom for block in blocks), default=None)
    for block in blocks:
        if block.bottom == lowest:
            _open_bottom(block, lines, page)
        _open_top(block, lines)
    return blocks


def _row_between_rows(lines: list[Line], lone: list[tuple[float, float, float]], chain: list[tuple[float, float, float]], j: int) -> bool:
    """Whether the band over rule `j` is one row of a run of ruled rows whose cells are set closer than a gap (`-3
    NAME_OF_A_CODE One or more arguments…` in one piece): one printed line, as high as the rows over it (two at
    least), and the band under it, as high, holds table rows, ruled as wide."""
    if len(chain) < 3:
        return False
    left, right, bottom, top = chain[0][0], chain[0][1], lone[j][2], chain[-1][2]
    inside = [line for line in lines if bottom < (line.top + line.bottom) / 2 < top and line.x1 > left and line.x0 < right]
    height = statistics.median(a[2] - b[2] for a, b in itertools.pairwise(chain))  # a row's height, a taller header aside
    if len(inside) != 1 or abs((top - bottom) - height) > 0.15 * height:
        return False
    below = next((rule for rule in lone[j + 1 :] if abs(rule[0] - left) <= 4 and abs(rule[1] - right) <= 4), None)
    return below is not None and abs((bottom - below[2]) - height) <= 0.15 * height and _table_band(lines, left, right, below[2], bottom)


_ROW_HEIGHT = 7.0  # points: the least a row needs for a line of text in the smallest type a table is set in (6 pt)


def _too_low(heights: list[float]) -> bool:
    """Whether most spaces between a region's horizontal rules are too low for a line of text: the lines of a staff,
    a chord diagram's frets, graph paper. A drawing, not a table (a double rule is one low space among rows)."""
    low = sum(1 for a, b in itertools.pairwise(heights) if a - b < _ROW_HEIGHT)
    return 2 * low > len(heights) - 1


def _distinct(xs: list[float]) -> list[float]:
    result: list[float] = []
    for x in xs:
        if not result or x - result[-1] > 3:
            result.append(x)
    return result


def _other_floats(page: Page, stream: list[Line], positions: list[int]) -> set[int]:
    """The lines of floats of another kind framed by rules (`Example 21: …`, `Listing 3: …` between two rules,
    its content down to the next rule as wide): an example's output beside its code is no table."""
    taken: set[int] = set()
    rules = [rule for rule in page.hrules if rule[1] - rule[0] >= TABLE_RULE]
    for position in positions:
        line = stream[position]
        text = clean_inline(line.text)
        if len(line.spans) >= 2 or not _OTHER_CAPTION.match(text) or TABLE_CAPTION.match(text) or FIGURE_CAPTION.match(text):
            continue
        size = max(line.size, 6.0)
        over = [r for r in rules if r[0] - 4 <= line.x0 and line.x1 <= r[1] + 4]
        above = [r for r in over if 0 <= r[2] - line.top <= 2.5 * size]
        below = [r for r in over if 0 <= line.bottom - r[2] <= 4 * size]
        if not above or not below:
            continue
        lower = max(below, key=lambda r: r[2])
        ends = [r[2] for r in over if r[2] < lower[2] - 1 and abs(r[0] - lower[0]) <= 4 and abs(r[1] - lower[1]) <= 4]
        if not ends:
            continue
        bottom = max(ends)
        for other in positions:
            middle = (stream[other].top + stream[other].bottom) / 2
            if bottom < middle < lower[2] and stream[other].x1 > lower[0] and stream[other].x0 < lower[1]:
                taken.add(other)
    return taken


_OTHER_CAPTION = re.compile(r"^[A-Z][a-z]{2,15}\s+[A-Z]?\d{1,3}(?:[.\-]\d{1,3})*\s*[:.–—]\s+\S")


def _table_band(lines: list[Line], left: float, right: float, bottom: float, top: float) -> bool:
    """Whether the band between two rules holds table rows: no text wider than the rules, no caption, text
    close to the rules, and every line cut into cells or continuing a cell (a line in one piece that starts
    at the rules' left edge is prose: a framed note, or the text between two tables)."""
    inside = [line for line in lines if bottom < (line.top + line.bottom) / 2 < top and line.x1 > left and line.x0 < right]
    if not inside:
        return top - bottom < 12  # two rules set close (a double rule); an empty band wider is the space between two frames
    if any(line.x0 < left - 4 or line.x1 > right + 4 for line in inside):
        return False
    if any(TABLE_CAPTION.match(line.text.strip()) or FIGURE_CAPTION.match(line.text.strip()) for line in inside):
        return False
    top_line = max(inside, key=lambda line: line.top)
    if len(inside) <= 3 and all(len(line.spans) < 2 for line in inside) and _OTHER_CAPTION.match(clean_inline(top_line.text)):
        return False  # a float's caption between two rules (`Example 21: …`, `Listing 3: …`): not a header row
    size = max(max(line.size for line in inside), 6.0)
    if top - max(line.top for line in inside) > 1.5 * size or min(line.bottom for line in inside) - bottom > 1.5 * size:
        # text set well apart from the rules: what lies between two tables, or a framed note, unless nearly
        # every printed row is cut into cells (a table in a small font with room around it)
        rows = _printed_rows(inside)
        if sum(1 for row in rows if len(row) >= 2) < 0.6 * len(rows):
            return False
    return _rows_like(inside, left, right)


def _rows_like(lines: list[Line], left: float, right: float) -> bool:
    """Lines that read as table rows: some cut into cells, the others continuing a cell (not starting at the
    left edge, or starting under a column); a few lines in one piece may be a header or a one-row table. Lines
    side by side on one printed row (PDFium may give each column's text as a line of its own) are one row."""
    rows = _printed_rows(lines)
    cut = [row for row in rows if len(row) >= 2 and not _spread_prose(row)]
    if len(rows) >= 3 and sum(1 for line in lines if line.mono) >= 0.8 * len(lines) and len(cut) < 0.5 * len(rows):
        return False  # code between rules (a framed listing, mostly lines in one piece), not a table of command names
    if not cut:  # a header, or a table of one row, in pieces set close; not lines of prose, nor code
        long = [row[0][0] for row in rows if len(row[0][0]) > 60]
        # one header row of long names set a space apart (`Command \intclockwise \awint …`), in one piece: fewer
        # words than a sentence that long
        return len(rows) <= 3 and not (long and (len(rows) > 1 or len(long[0].split()) >= 8))
    starts = [span[1] for row in cut for span in row[1:]]
    width = max(right - left, 1.0)
    columns = max(len(row) for row in cut)
    rows = [[(" ".join(piece[0] for piece in row), row[0][1], row[-1][2])] if _spread_prose(row) else row for row in rows]
    prose = [
        row[0]
        for row in rows
        if len(row) < 2
        and row[0][1] - left < 0.1 * width
        and row[0][2] - row[0][1] > 0.5 * width
        and not any(abs(row[0][1] - start) <= 3 for start in starts)
        and len(row[0][0].split()) > 1.5 * columns  # more words than a row of cells set close together
    ]
    # lines of prose across the table's width; one short line is a row whose cells are set closer than a gap
    return not prose or (len(prose) == 1 and len(prose[0][0]) <= 60 and len(cut) >= 2)


def _spread_prose(row: list[tuple[str, float, float]]) -> bool:
    """A justified line of prose that PDFium cut at its wide word spaces: eight pieces or more, nearly all one
    lowercase word each (of two letters or more: a row of glyphs, `α β γ`, is cells)."""
    if len(row) < 8:
        return False
    words = [piece[0].strip() for piece in row]
    return sum(1 for word in words if " " not in word and len(word) > 1 and word[:1].islower()) >= 0.7 * len(words)


def _printed_rows(lines: list[Line]) -> list[list[tuple[str, float, float]]]:
    """The pieces of the lines grouped by printed row, top to bottom, each row left to right: lines that
    overlap in height by half and not in width are one row."""
    rows: list[tuple[float, float, list[tuple[str, float, float]]]] = []
    for line in sorted(lines, key=lambda line: -line.top):
        spans = line.spans or [(line.text, line.x0, line.x1)]
        if rows:
            top, bottom, pieces = rows[-1]
            overlap = min(top, line.top) - max(bottom, line.bottom)
            apart = all(x1 <= span[1] or span[2] <= x0 for _, x0, x1 in pieces for span in spans)
            if overlap > 0.5 * min(top - bottom, line.top - line.bottom) and apart:
                rows[-1] = (max(top, line.top), min(bottom, line.bottom), sorted([*pieces, *spans], key=lambda span: span[1]))
                continue
        rows.append((line.top, line.bottom, list(spans)))
    return [pieces for _, _, pieces in rows]


def _open_bottom(block: _Block, lines: list[Line], page: Page) -> None:
    """A table whose last rule is not its end (a long table going on to the next page): the rows under that
    rule down to the foot of the page belong to it when they read as rows and nothing else follows."""
    if block.vs or block.closed:
        return  # a grid draws its rules around every row, a box is shut at its foot: text under its last rule is not its rows
    below = [line for line in lines if (line.top + line.bottom) / 2 < block.bottom]
    if not below or any(TABLE_CAPTION.match(line.text.strip()) or FIGURE_CAPTION.match(line.text.strip()) for line in below):
        return
    beside = [line for line in below if line.x1 > block.left and line.x0 < block.right]
    if len(beside) != len(below) or not _rows_like(beside, block.left, block.right):
        return
    if any(line.x0 < block.left - 4 or line.x1 > block.right + 4 for line in beside):
        return
    size = max(max(line.size for line in beside), 6.0)
    if block.bottom - max(line.top for line in beside) > 1.5 * size:
        return
    header = [line for line in lines if block.bottom < (line.top + line.bottom) / 2 < block.top]
    inside = sorted(line.size for line in header)
    starts = [span[1] for line in header for span in (line.spans or [(line.text, line.x0, line.x1)])[1:]]
    if not inside or any(
        line.size < inside[len(inside) // 2] - 0.5 and len(line.text.strip()) > 3 and not _under_columns(line, starts) for line in beside
    ):
        return  # footnotes under the table, not more rows (a script's lone letters are no footnote)
    block.bottom = min(line.bottom for line in beside) - 1
    block.hs.append(block.bottom)
    block.open_end = True


def _under_columns(line: Line, starts: list[float]) -> bool:
    """Whether a piece of a line starts where a column past the first starts in the rows above (a table's rows,
    or a cell's wrapped line, set smaller than its header; a note under a table starts at its left edge)."""
    return any(abs(span[1] - start) <= 3 for span in line.spans for start in starts)


def _open_top(block: _Block, lines: list[Line]) -> None:
    """A header row set over a table's first rule with no rule above it (the rule under the header, then rules
    between groups of rows): when the first band holds rows cut into cells, the line right over the rule whose
    pieces all start where the rows' cells start is the header, and the region reaches up to it."""
    if block.vs or len(block.hs) < 2:
        return
    band = [
        line for line in lines if block.hs[1] < (line.top + line.bottom) / 2 < block.top and line.x1 > block.left and line.x0 < block.right
    ]
    rows = _printed_rows(band)
    if len(rows) < 2 or any(len(row) < 2 for row in rows):
        return  # a header band holds one printed line, or a header's wrapped cells
    size = max(max(line.size for line in band), 6.0)
    above = [line for line in lines if 0 <= line.bottom - block.top <= 0.6 * size and line.x1 > block.left and line.x0 < block.right]
    printed = _printed_rows(above)
    if len(printed) != 1 or len(printed[0]) < 2 or any(line.x0 < block.left - 4 or line.x1 > block.right + 4 for line in above):
        return
    if any(TABLE_CAPTION.match(line.text.strip()) or FIGURE_CAPTION.match(line.text.strip()) for line in above):
        return
    starts = [piece[1] for row in rows for piece in row]
    if all(any(abs(piece[1] - start) <= 3 for start in starts) for piece in printed[0]):
        block.top = max(line.top for line in above) + 1
        block.hs.insert(0, block.top)


def _block_at_caption(blocks: list[_Block], caption: Line, last: Line, side: int) -> _Block | None:
    """The ruled region right above a caption set under its table, or right below one set over it (below the
    caption's last line when it goes on over several), else one beside it (a caption in the margin or at the
    side of its table, its first line level with the table's upper part)."""
    near = 3.5 * max(caption.size, 6.0)
    facing = [b for b in blocks if not b.used and caption.x0 < b.right and b.left < caption.x1]
    above = [b for b in facing if 0 <= b.bottom - caption.top <= near]
    below = [b for b in facing if 0 <= last.bottom - b.top <= near]
    first, second = (above, below) if side < 0 else (below, above)
    if first:
        return min(first, key=lambda b: abs(b.bottom - caption.top) if first is above else abs(last.bottom - b.top))
    if second:
        return min(second, key=lambda b: abs(b.bottom - caption.top) if second is above else abs(last.bottom - b.top))
    middle = (caption.top + caption.bottom) / 2
    beside = [
        b
        for b in blocks
        if not b.used
        and b.bottom + (b.top - b.bottom) / 3 < middle < b.top + caption.size
        and (0 <= b.left - caption.x1 <= near or 0 <= caption.x0 - b.right <= near)
    ]
    return min(beside, key=lambda b: min(abs(b.left - caption.x1), abs(caption.x0 - b.right))) if beside else None


_SUBCAPTION = re.compile(r"^\((?:[a-z]|[ivx]{1,4})\)\s+\S")


def _block_under_subcaptions(blocks: list[_Block], caption: Line, last: Line, lines: list[Line]) -> _Block | None:
    """The first of the ruled regions under a caption over sub-tables (`Table 6: Results`, then `(a) First
    table`, `(b) Second table` over each): the nearest region below, when nothing but sub-captions (lines
    opening with `(a)`, and the lines they go on over, no larger than the caption) lies between."""
    near = 3.5 * max(caption.size, 6.0)
    found = []
    for block in blocks:
        if block.used or not 0 <= last.bottom - block.top <= near + 8 * max(caption.size, 6.0):
            continue
        if not (caption.x0 < block.right + near and block.left - near < caption.x1):
            continue
        between = [
            line
            for line in lines
            if block.top < (line.top + line.bottom) / 2 < last.bottom and line.x1 > block.left and line.x0 < block.right
        ]
        if not between or len(between) > 8 or any(line.size > caption.size + 0.5 for line in between):
            continue
        if not _SUBCAPTION.match(clean_inline(max(between, key=lambda line: line.top).text)):
            continue  # the first line under the caption, over this region, opens a sub-caption
        found.append(block)
    return max(found, key=lambda block: (round(block.top), -block.left)) if found else None


def _with_other_half(block: _Block, blocks: list[_Block], caption: Line, lines: list[Line]) -> _Block:
    """A table set as two halves side by side under one caption (a long, narrow table folded once): the
    ruled region beside the caption's one, with rules at the same heights, the same header row and rows on
    the same baselines, under the same caption (it spans both), joins it; the result is one region, its
    rows the printed lines across both halves. Tables side by side each under a caption of their own, or
    with no caption, stay apart."""
    for other in blocks:
        if other is block or other.used or len(other.hs) != len(block.hs) or len(block.hs) < 3:
            continue
        if any(abs(a - b) > 2 for a, b in zip(block.hs, other.hs, strict=True)):
            continue
        left, right = (block, other) if block.left < other.left else (other, block)
        gap = right.left - left.right
        if not 0 < gap <= 0.5 * min(left.right - left.left, right.right - right.left):
            continue
        if not (caption.x0 < other.right and other.left < caption.x1):
            continue  # the caption is over one half only: a table of its own stands beside it
        if any(_SUBCAPTION.match(clean_inline(line.text)) for line in _next_to(lines, block) + _next_to(lines, other)):
            continue  # each under a sub-caption of its own, `(a) …`, `(b) …`: sub-tables
        heads = [
            sorted((line for line in lines if _inside(line, half) and (line.top + line.bottom) / 2 > half.hs[1]), key=lambda line: line.x0)
            for half in (left, right)
        ]
        if not heads[0] or [clean_inline(line.text) for line in heads[0]] != [clean_inline(line.text) for line in heads[1]]:
            continue
        if any(abs(a.bottom - b.bottom) > 1 for a, b in zip(*heads, strict=True)):
            continue
        body = [[line for line in lines if _inside(line, half) and (line.top + line.bottom) / 2 < half.hs[1]] for half in (left, right)]
        if not _same_baselines(*body):
            continue
        other.used = block.used = True  # the joined region stands for both
        fold = right.left - gap / 2
        walls = [*left.vs, fold, *right.vs] if left.vs or right.vs else []
        bottom, top = min(left.bottom, right.bottom), max(left.top, right.top)
        return _Block(block.page, left.left, bottom, right.right, top, block.hs, walls, fold=fold)
    return block


def _next_to(lines: list[Line], block: _Block) -> list[Line]:
    """The lines right above or right below a ruled region, over its width (where a sub-caption would be)."""
    reach = 3.0 * max((line.size for line in lines), default=10.0)
    return [
        line
        for line in lines
        if line.x1 > block.left
        and line.x0 < block.right
        and (0 <= line.bottom - block.top <= reach or 0 <= block.bottom - line.top <= reach)
    ]


def _same_baselines(lines: list[Line], others: list[Line]) -> bool:
    """Whether the lines of two regions side by side sit on one grid of baselines: each pair of lines, one from
    each, either shares its baseline or lies a whole number of line steps apart."""
    bottoms = sorted({round(line.bottom, 1) for line in [*lines, *others]})
    steps = [b - a for a, b in itertools.pairwise(bottoms) if b - a > 1.0]
    if not steps:
        return True
    step = min(steps)
    return all(abs(gap / step - round(gap / step)) <= 0.15 for gap in steps)


_BARE_CAPTION = re.compile(rf"^{TABLE_CAPTION_LABEL}[ \t\u00a0]*(?:[A-Z][.\-]?)?\d+(?:[.\-]\d+)*[ \t\u00a0]*[:–—]$")


def _is_caption(text: str) -> bool:
    """A table's caption line: `Table 2.1: Title`, or its label alone (`Table 2:`, its title on the lines under it)."""
    return bool(TABLE_CAPTION.match(text) or _BARE_CAPTION.match(text.strip()))


def _inside(line: Line, block: _Block) -> bool:
    middle = (line.top + line.bottom) / 2
    return block.bottom < middle < block.top and line.x0 < block.right and block.left < line.x1


def _caption_more(stream: list[Line], position: int, headings: dict, used: set[int], blocks: list[_Block]) -> list[int]:
    """The lines a caption goes on over (`Table 4. Spelling differences …` and the sentences under it): set
    close under it in its size, in one piece, not left of it, outside every ruled region; four at most."""
    caption = stream[position]
    more: list[int] = []
    previous = caption
    size = max(caption.size, 6.0)
    for following in range(position + 1, min(position + 5, len(stream))):
        line = stream[following]
        if following in headings or following in used or line.page != caption.page or len(line.spans) >= 2:
            break
        # a label alone (`Table 2:` in the margin) may stand further above its title
        apart = 2.5 if previous is caption and _BARE_CAPTION.match(clean_inline(caption.text).strip()) else 0.8
        if abs(line.size - caption.size) >= 0.5 or not 0 <= previous.bottom - line.top <= apart * size:
            break
        if line.x0 < caption.x0 - size or any(_inside(line, block) for block in blocks):
            break  # set out left of the caption, or a table's own line (its header)
        text = clean_inline(line.text)
        if TABLE_CAPTION.match(text) or FIGURE_CAPTION.match(text):
            break
        more.append(following)
        previous = line
    return more


def _uncaptioned_block(block: _Block, figures: list[Box], boxed: bool = False) -> bool:
    """A ruled region is a table without a caption when rules divide it into columns (a grid), or three
    rules or more frame it (booktabs), or it is a box of rows (`_boxed_rows`), and it is not part of a figure."""
    for region in figures:
        if block.left < region[2] and region[0] < block.right and block.bottom < region[3] and region[1] < block.top:
            return False
    return bool(block.vs) or len(block.hs) >= 3 or boxed


_LABEL_WORDS = 6  # the most words of a drawing's label (a line of prose has more)


def _over_figure_caption(block: _Block, lines: list[Line], figures: list[Box]) -> bool:
    """Whether a ruled region stands over a figure's caption with nothing but a drawing's labels between (short lines
    that end no sentence): boxes drawn in a diagram, not a table. A line of prose or a table's caption between the
    two, or the figure's own drawing found between them (a picture under the table), and the region is a table."""
    below = sorted((line for line in lines if line.top < block.bottom), key=lambda line: -line.top)
    for line in below:
        text = clean_inline(line.text).strip()
        if FIGURE_CAPTION.match(text):
            return not any(region[3] <= block.bottom + 2 and line.bottom - 2 <= region[1] for region in figures)
        pieces = [span[0].strip() for span in line.spans] or [text]  # labels side by side, a piece each
        if TABLE_CAPTION.match(text) or any(len(piece.split()) > _LABEL_WORDS or piece.endswith(".") for piece in pieces):
            return False
    return False


_BOXED_ROWS = 4  # the fewest printed rows a box without inner rules frames to be a table


def _boxed_rows(block: _Block, lines: list[Line]) -> bool:
    """Whether a box shut on all four sides, no rule inside it but what shades or groups its rows, frames the rows of a
    table: four printed rows or more, nearly all cut into three pieces or more, three columns or more starting at
    one x in most of them; not code (a console's columns in a shaded box are a listing)."""
    if not block.closed or block.vs or len(block.hs) != 2:
        return False
    inside = [line for line in lines if _inside(line, block)]
    if not inside or sum(1 for line in inside if line.mono) >= 0.5 * len(inside):
        return False
    rows = _printed_rows(inside)
    cut = [row for row in rows if len(row) >= 3]
    if len(rows) < _BOXED_ROWS or len(cut) < 0.8 * len(rows):
        return False
    starts = _distinct(sorted({round(piece[1]) for row in cut for piece in row}))
    shared = [x for x in starts if sum(1 for row in cut if any(abs(piece[1] - x) <= 3 for piece in row)) >= 0.6 * len(cut)]
    return len(shared) >= 3


def _block_table(
    block: _Block,
    stream: list[Line],
    positions: list[int],
    headings: dict,
    used: set[int],
    page_blocks: list[_Block],
    captioned: bool = False,
) -> Table | None:
    """The table inside a ruled region: its lines' pieces put in columns (between the vertical rules, else
    where the text is aligned) and in rows (between the horizontal rules of a grid, else line by line, a
    line without a first cell continuing the row above; booktabs' first band is the header row)."""
    items: list[tuple[float, float, float, float, str, bool]] = []  # top, bottom, x0, x1, text, bold
    members: list[int] = []
    for position in positions:
        line = stream[position]
        if position in used or position in headings:
            continue
        middle = (line.top + line.bottom) / 2
        if not block.bottom < middle < block.top:
            continue
        spans = line.spans or [(line.text, line.x0, line.x1)]
        mine = [span for span in spans if block.left - 4 <= (span[1] + span[2]) / 2 <= block.right + 4]
        if not mine:
            continue
        elsewhere = [span for span in spans if span not in mine]
        if any(
            not any(b.left - 4 <= (span[1] + span[2]) / 2 <= b.right + 4 and b.bottom < middle < b.top for b in page_blocks)
            for span in elsewhere
        ):
            continue  # the line goes on outside every ruled region: it is text, not a row
        bold = line.bold_prefix >= len(line.text.rstrip()) - 1
        items.extend((line.top, line.bottom, span[1], span[2], span[0], bold) for span in mine)
        members.append(position)
    if len(members) < 2 and not ((block.vs or captioned) and members):
        return None  # one line between rules is a table only when a caption or vertical rules say so
    body = [item for item in items if (item[0] + item[1]) / 2 < block.hs[1]] if len(block.hs) >= 3 else []
    heads = [item[2] for item in items if (item[0] + item[1]) / 2 > block.hs[1]] if body else []
    columns = _columns(block, body or items, heads)  # a header cell may run over two columns: the body decides them
    if not block.vs:
        columns = _with_extents(columns, body or items)
    if len(columns) < 2 and not block.vs and not (captioned and len(members) == 1):
        return None
    bands = block.hs
    # a rule under every row (a grid, or groff's `allbox`, asciidoctor's rows): each band between two rules is one
    # row, however its cells wrap; rules under most bands' single printed line say so without vertical rules
    grid = len(bands) >= 4 and (bool(block.vs) or _ruled_rows(items, bands))
    rows: list[list[str]] = []
    header = False
    for number in range(max(1, len(bands) - 1)):
        top, bottom = (bands[number], bands[number + 1]) if len(bands) >= 2 else (block.top, block.bottom)
        inside = [item for item in items if bottom < (item[0] + item[1]) / 2 < top]
        if not inside:
            continue
        if grid and number > 0 and _rows_in_band(inside, columns):
            rows.extend(_band_rows(inside, columns, bool(block.vs)))
            continue
        if grid or (number == 0 and len(bands) >= 3 and not block.vs):
            if number == 0 and not block.vs:
                inside = _header_cells_apart(inside, columns)
            rows.append(_cells_of(inside, columns, bool(block.vs)))
            header = header or (number == 0 and not block.vs)  # without vertical rules the first band is the header
            continue
        if block.fold is not None:
            rows.extend(_folded_rows(inside, columns, block.fold, bool(block.vs)))
        else:
            rows.extend(_band_rows(inside, columns, bool(block.vs)))
    rows = [row for row in rows if any(row)]
    if not rows:
        return None
    if not header and grid:
        first = [item for item in items if (item[0] + item[1]) / 2 > bands[1]] if len(bands) >= 2 else []
        header = bool(first) and all(item[5] for item in first)
    if not header:
        header = _has_header(rows, [])
    block.used = True
    walls = tuple(x - block.left for x in block.vs)
    starts = tuple(columns[1:]) if block.vs else tuple(columns)  # between vertical rules, the rules (not the frame)
    return Table(
        None,
        members,
        rows,
        header,
        block.left,
        block.right,
        ruled=True,
        open_end=block.open_end,
        walls=walls,
        starts=starts,
        extent=(block.bottom, block.top),
    )


def _rows_in_band(items: list[tuple], columns: list[float]) -> bool:
    """Whether a band of a ruled table holds several rows rather than one row of wrapped cells (a table that
    rules off its title and header and leaves its body rows unruled): three printed lines or more, each with
    text in every column the band uses, two at least."""
    printed = _printed_lines(items)
    used = {_column_of(item, columns, True) for item in items}
    return len(printed) >= 3 and len(used) >= 2 and all({_column_of(item, columns, True) for item in line} == used for line in printed)


def _header_cells_apart(items: list[tuple], columns: list[float]) -> list[tuple]:
    """A header row of one printed line whose cells are set closer than a gap (`Festigkeitsklasse f in N/mm²`
    over two columns): a piece that runs across the start of a column of the body is cut at the word space
    that falls there (its place estimated from the share of printed characters before it), when the header
    has fewer pieces than the table has columns."""
    if len(items) >= len(columns) or len(_printed_lines(items)) != 1:
        return items
    result: list[tuple] = []
    for item in items:
        text = item[4]
        inner = [x for x in columns[1:] if item[2] + 2 < x < item[3] - 2]
        printed = _printed_text(text)
        if not inner or len(printed) < 3:
            result.append(item)
            continue
        em = max(item[0] - item[1], 4.0)
        width = (item[3] - item[2]) / len(printed)
        cuts = []
        for x in inner:
            spaces = [k for k, char in enumerate(text) if char == " "]
            # the x where each space falls, from the printed characters before it
            placed = [(abs(item[2] + len(_printed_text(text[:k])) * width - x), k) for k in spaces]
            best = min(placed, default=None)
            if best is not None and best[0] <= 0.6 * em:
                cuts.append((best[1], x))
        if not cuts:
            result.append(item)
            continue
        start, left = 0, item[2]
        for cut, x in sorted(cuts):
            result.append((item[0], item[1], left, x - 1, text[start:cut].strip(), item[5]))
            start, left = cut + 1, x
        result.append((item[0], item[1], left, item[3], text[start:].strip(), item[5]))
    return result


def _printed_text(text: str) -> str:
    """The characters a piece prints: script markup (`_{…}`, `^{…}`) is not printed."""
    return re.sub(r"[_^]\{([^{}]*)\}", r"\1", text)


def _ruled_rows(items: list[tuple], bands: list[float]) -> bool:
    """Whether horizontal rules separate the rows themselves rather than groups of rows (booktabs' midrules):
    most bands that hold text hold one printed line."""
    counts = []
    for number in range(len(bands) - 1):
        inside = [item for item in items if bands[number + 1] < (item[0] + item[1]) / 2 < bands[number]]
        if inside:
            counts.append(len(_printed_lines(inside)))
    return len(counts) >= 3 and 2 * sum(1 for count in counts if count == 1) > len(counts)


def _printed_lines(items: list[tuple]) -> list[list[tuple]]:
    """The pieces grouped by printed line, top to bottom."""
    printed: list[list[tuple]] = []
    for item in sorted(items, key=lambda item: -item[0]):
        if printed and _same_row(printed[-1], item):
            printed[-1].append(item)
        else:
            printed.append([item])
    return printed


def _columns(block: _Block, items: list[tuple], header: list[float] | None = None) -> list[float]:
    """The left edges of the columns: the vertical rules, else the places where pieces of text start again
    and again (starts within a character's width of one another are one column: right-aligned numbers)
    and that hardly any piece runs across (a cell that overflows into an empty neighbour does not merge
    two columns), or where a header cell starts too (`header`: cells set closer than a gap run across it)."""
    if block.vs:
        return [block.left - 1, *block.vs]
    if not items:
        return []
    heights = sorted(item[0] - item[1] for item in items)
    em = min(max(heights[len(heights) // 2], 6.0), 14.0)
    clusters: list[list[float]] = []  # first start, count, last start
    for x in sorted(_text_start(item) for item in items):
        if clusters and x - clusters[-1][2] <= em:  # columns are at least a gap (1.2 em) apart
            clusters[-1][1] += 1
            clusters[-1][2] = x
        else:
            clusters.append([x, 1, x])
    columns: list[float] = []
    for x, count, last in clusters:
        crossing = sum(1 for item in items if item[2] < x - 1 and item[3] > x + 1)
        headed = count >= 2 and any(x - em <= start <= last + em for start in header or [])
        if not columns or headed or (crossing <= max(1, 0.15 * count) and (count >= 2 or crossing == 0)):
            columns.append(x)
    return columns


_BULLET_LED = re.compile(r"^[•◦▪▸‣∙●○■□–]\s+\S")


def _text_start(item: tuple) -> float:
    """Where a piece's text starts: a bullet set out before an item (a list whose marked item hangs its bullet in the
    margin) starts its item where the words start, so the bullet makes no column of its own."""
    text = item[4]
    if not _BULLET_LED.match(text):
        return item[2]
    words = text[1:].lstrip()
    return item[2] + (item[3] - item[2]) * (len(text) - len(words)) / max(len(text), 1)


def _cells_of(items: list[tuple], columns: list[float], ruled: bool = False) -> list[str]:
    """One row's cells, top to bottom: between vertical rules each piece in the column it starts in (text
    that runs over a rule belongs where it starts), else in the column it overlaps most (a centred header
    or a right-aligned number may start left of its column's other cells)."""
    cells: list[list[tuple]] = [[] for _ in columns]
    for item in items:
        cells[_column_of(item, columns, ruled)].append(item)
    result = []
    for cell in cells:
        text = ""
        for item in sorted(cell, key=lambda item: (-round(item[0]), item[2])):
            broken = LINE_END_HYPHEN if item[4].rstrip().endswith(LINE_END_HYPHEN) else ""  # kept for the writer's dictionary
            text = _joined_cell(text, clean_inline(item[4]) + broken)
        result.append(text)
    return result


def _column_of(item: tuple, columns: list[float] | _Columns, ruled: bool) -> int:
    if ruled or not isinstance(columns, _Columns):
        return max(0, bisect.bisect_right(columns, item[2] + 1) - 1)
    # the most overlap, then (as much overlap) the column it starts nearest to; compared as the pair (overlap, nearness)
    # would be, written out: this runs for every piece of every candidate table
    start, end = item[2], item[3]
    best, most, nearest = 0, float("-inf"), 0.0
    for k, (left, right) in enumerate(columns.extents):
        overlap = round((end if end < right else right) - (start if start > left else left))  # negative: the distance to the column
        nearness = -abs(start - left)
        if overlap > most if overlap != most else nearness > nearest:
            best, most, nearest = k, overlap, nearness
    return best


class _Columns(list):
    """Column starts (a list of x) that also know each column's extent: from its cells' leftmost start to
    their rightmost end."""

    extents: list[tuple[float, float]]
    counts: list[int]  # how many pieces start in each column


def _with_extents(columns: list[float], items: list[tuple]) -> _Columns:
    """The columns with their extents: a piece that runs on into the next column (cells set closer than a gap)
    widens its column only when no other piece ends short of the next column."""
    result = _Columns(columns)
    ends: list[list[float]] = [[] for _ in columns]
    for item in items:
        ends[max(0, bisect.bisect_right(columns, item[2] + 1) - 1)].append(item[3])
    extents = []
    for k, x in enumerate(columns):
        inside = [end for end in ends[k] if k + 1 >= len(columns) or end <= columns[k + 1]]
        extents.append((x, max(inside or ends[k] or [x])))
    result.extents = extents
    result.counts = [len(found) for found in ends]
    return result


def _joined_cell(above: str, below: str) -> str:
    """A cell's text over two lines: a word broken at the line end is joined again (at PDFium's hyphen mark,
    which stays for the writer to decide from the document's words whether the hyphen is the word's own)."""
    if not above or not below:
        return (above or below).strip()
    if above.endswith(LINE_END_HYPHEN):
        return above + below
    if above.endswith("\u00ad"):
        return above[:-1] + below
    if above.endswith(("-", "/", "_")) and not above.endswith(" -"):  # `debian-` + `security/`: an identifier goes on
        return above + below
    return f"{above} {below}"


def _band_rows(items: list[tuple], columns: list[float], ruled: bool = False) -> list[list[str]]:
    """The rows of a band of a table, their cells."""
    return [_cells_of(group, columns, ruled) for group in _band_groups(items, columns, ruled)]


def _band_groups(items: list[tuple], columns: list[float], ruled: bool = False) -> list[list[tuple]]:
    """The pieces of a band of a table grouped by row: one row per printed line that has a first cell; a line
    without one joins the row above when it wraps its cells (`_wraps_into`; always between vertical rules),
    else opens a row of its own under a spanning first cell; before the band's first row it joins that row (a
    first cell centred against several lines of the others)."""
    printed = _printed_lines(items)
    first_edge = columns[1] if len(columns) > 1 else float("inf")
    groups: list[list[tuple]] = []
    before: list[tuple] = []  # lines before the first row's first cell (a first cell centred against them)
    for row in printed:
        if groups and not ruled and _first_cell_wraps(groups[-1], row, columns, first_edge):
            groups[-1].extend(row)  # `Cheville à | 1,25 | 1,50`, then `expansion` alone: the first cell wrapped
        elif any(item[2] < first_edge - 1 for item in row):
            groups.append([*before, *row] if not groups else list(row))
            before = []
        elif groups and (ruled or _wraps_into(groups[-1], row, columns, any(item[2] < first_edge - 1 for item in groups[-1]))):
            # with vertical rules a sub-row has a rule of its own
            groups[-1].extend(row)  # a wrapped cell goes with the row above
        elif groups:
            groups.append(list(row))  # a row under a spanning first cell
        else:
            before.extend(row)
    return groups or [before]


def _folded_rows(items: list[tuple], columns: list[float], fold: float, ruled: bool = False) -> list[list[str]]:
    """The rows of a band of a table set in two halves side by side: each half's rows read on their own (a line
    of one half opens a row when it has that half's first cell), then put side by side where they start on the
    same printed line; a row of one half beside none of the other gets empty cells there."""
    split = bisect.bisect_left(columns, fold)
    halves = [(0, _columns_part(columns, 0, split)), (split, _columns_part(columns, split, len(columns)))]
    placed: list[tuple[float, int, list[str]]] = []  # top, first column, cells
    for offset, part in halves:
        mine = [item for item in items if (item[2] < fold) == (offset == 0)]
        if mine:
            placed.extend(
                (max(item[0] for item in group), offset, _cells_of(group, part, ruled)) for group in _band_groups(mine, part, ruled)
            )
    rows: list[tuple[float, list[str]]] = []
    for top, offset, cells in sorted(placed, key=lambda placed: (-placed[0], placed[1])):
        if rows and abs(rows[-1][0] - top) <= 1.5 and not any(rows[-1][1][offset : offset + len(cells)]):
            rows[-1][1][offset : offset + len(cells)] = cells
        else:
            row = [""] * len(columns)
            row[offset : offset + len(cells)] = cells
            rows.append((top, row))
    return [row for _, row in rows]


def _columns_part(columns: list[float], start: int, end: int) -> list[float]:
    """Some of the columns, with their extents when they have them."""
    if not isinstance(columns, _Columns):
        return columns[start:end]
    part = _Columns(columns[start:end])
    part.extents = columns.extents[start:end]
    part.counts = columns.counts[start:end]
    return part


_WORD_BROKEN = ("-", LINE_END_HYPHEN, "\u00ad")  # a line that ends in one of these ends inside a word (hyphen, PDFium's mark, soft hyphen)


def _first_cell_wraps(above: list[tuple], line: list[tuple], columns: list[float], first_edge: float) -> bool:
    """Whether a printed line holding only a first cell goes on with the first cell of the row above: that row
    has other cells, and the next word would not have fitted after its first cell's last line (a one-word
    cell followed by a capitalised one is two entries; a number does not wrap)."""
    if not all(item[3] <= first_edge for item in line):
        return False  # the line has other cells: a row of its own
    over = [item for item in above if item[2] < first_edge - 1]
    if not over or len(over) == len(above):
        return False  # the row above is only a first cell (a group's label) or has none
    last = min(over, key=lambda other: (round(other[0]), -other[3]))  # the end of the lowest line of the cell so far
    text = clean_inline(last[4]).rstrip()
    below = " ".join(clean_inline(item[4]).strip() for item in sorted(line, key=lambda item: item[2]))
    if not text or not below or _NUMBER.match(text) or _NUMBER.match(below):
        return False  # a number does not wrap
    if len(text.split()) == 1 and below[:1].isupper() and not text.endswith(_WORD_BROKEN):
        return False  # a one-word cell, then a capitalised one: two entries
    if text.endswith(_WORD_BROKEN):
        return True
    # the line broke because the next word did not fit: the end of the line above plus a space and that word
    # runs past the widest end the column's cells reach
    word = _first_word_width((0.0, 0.0, min(item[2] for item in line), max(item[3] for item in line)), below)
    edge = columns.extents[0][1] if isinstance(columns, _Columns) else first_edge
    em = max(last[0] - last[1], 4.0)
    return last[3] + 0.25 * em + word > edge


_NUMBER = re.compile(r"^[-+−]?[$€£]?\d[\d.,:/×%]*$")


def _wraps_into(above: list[tuple], line: list[tuple], columns: list[float], headed: bool = True) -> bool:
    """Whether a printed line without a first cell goes on with the cells of the row above (multi-line cells)
    rather than opening a row of its own under a spanning first cell (booktabs' `Gnat | per gram`, then
    `| each`): every piece must sit under a piece of the row's text that ran to its column's right edge, or
    broke a word there, and that is no number (a number does not wrap). Under a spanning first cell (`headed`
    false: the row has none of its own) a capitalised word under a one-word cell is the next entry."""
    columns_above = [_column_of(other, columns, False) for other in above] if line else []  # each piece's column, once
    for item in line:
        column = _column_of(item, columns, False)
        over = [other for other, its in zip(above, columns_above, strict=True) if its == column]
        if not over:
            return False
        last = min(over, key=lambda other: (round(other[0]), -other[3]))  # the end of the lowest line of the cell so far
        text = clean_inline(last[4]).rstrip()
        below = clean_inline(item[4]).strip()
        if _NUMBER.match(text) or _NUMBER.match(below):
            return False
        em = max(last[0] - last[1], 4.0)
        supported = isinstance(columns, _Columns) and column + 1 < len(columns) and columns.counts[column + 1] >= 2
        if supported and item[3] > columns[column + 1] + 0.5 * em:
            return False  # a wrapped line stays in its column; one that runs on into the next is a row of its own
        if not headed and len(text.split()) == 1 and below[:1].isupper() and not text.endswith(_WORD_BROKEN):
            return False  # a one-word cell, then a capitalised one: two entries (`Inner`, `ResetAll`)
        left = columns[column]
        if isinstance(columns, _Columns):
            right = columns.extents[column][1]
        else:
            right = columns[column + 1] if column + 1 < len(columns) else max(other[3] for other in [*above, *line])
        if not (
            last[4].rstrip().endswith(_WORD_BROKEN)
            or last[3] >= right - max(2.5 * em, 0.3 * (right - left))
            # a lone piece (no sub-row filling several cells): the next word did not fit after the cell's last line
            or (len(line) == 1 and last[3] + 0.25 * em + _first_word_width(item, below) > right)
        ):
            return False
    return True


def _first_word_width(item: tuple, text: str) -> float:
    """The printed width of a piece's first word, its share of the piece's width by characters."""
    return (item[3] - item[2]) * len(text.split()[0]) / len(text) if text.strip() else 0.0


def _same_row(row: list[tuple], item: tuple) -> bool:
    """Whether a piece sits on the same printed row as those gathered (their heights overlap by half)."""
    top = max(other[0] for other in row)
    bottom = min(other[1] for other in row)
    overlap = min(top, item[0]) - max(bottom, item[1])
    return overlap > 0.5 * min(top - bottom, item[0] - item[1])


def _join_page_breaks(tables: list[Table], stream: list[Line], on_page: dict[int, list[int]], used: set[int]) -> list[Table]:
    """A table cut by a page break: the part that ends a page and the part that opens the next one, with
    as many columns and nothing else between them, are one table (a repeated header row is dropped)."""
    by_first = sorted(tables, key=lambda table: table.first)
    result: list[Table] = []
    for table in by_first:
        if result and _continues(result[-1], table, stream, on_page, used):
            previous = result[-1]
            repeated = table.header and previous.rows and table.rows[0] == previous.rows[0]
            rows = table.rows[1:] if repeated or _repeated_header(previous, table) else table.rows
            if previous.caption is None and table.caption is not None and table.header and not previous.header:
                rows = table.rows
            if (
                rows
                and previous.rows
                and not rows[0][0]
                and any(rows[0])
                and previous.rows[-1][0]
                and len(rows[0]) == len(previous.rows[-1])
            ):
                # a row broken across the page (office suites let a row break): its first cell is empty where it goes on
                previous.rows[-1] = [_joined_cell(above, below) for above, below in zip(previous.rows[-1], rows[0], strict=True)]
                rows = rows[1:]
            merged = Table(
                previous.caption if previous.caption is not None else table.caption,
                sorted({*previous.positions, *table.positions}),
                [*previous.rows, *rows],
                previous.header or table.header,
                table.left,
                table.right,
                table.ruled,
                table.open_end,  # the last part decides whether it goes on again
                table.walls,
                extent=table.extent,  # and its frame holds the labels over the rows it ends with
            )
            result[-1] = merged
            continue
        result.append(table)
    return result


def _same_columns(previous: Table, table: Table) -> bool:
    """Whether a table that opens a page goes on with the one that ended the page before, without repeating its
    header: as many columns, starting at the same distances from the first (the part may shift sideways on
    facing pages), and its first row is a row of data like those above it (each cell empty, a number or text
    where theirs are), not a header of its own."""
    a, b = previous.starts, table.starts
    if len(a) < 2 or len(a) != len(b) or abs(a[0] - b[0]) > 40:
        return False
    if any(abs((x - a[0]) - (y - b[0])) > 3 for x, y in zip(a, b, strict=True)):
        return False
    body = previous.rows[1:] if previous.header else previous.rows
    first = table.rows[0]
    if previous.header and first == previous.rows[0]:
        return False  # a repeated header: the rules for a long table decide
    return any(_kinds(row) == _kinds(first) for row in body[-12:])


def _repeated_header(previous: Table, table: Table) -> bool:
    """Whether a table opens with the header row of the one before, word for word, however its cells are cut."""
    if not (previous.header and table.header and previous.rows and table.rows):
        return False
    words = " ".join(previous.rows[0]).split()
    return bool(words) and words == " ".join(table.rows[0]).split()


def _kinds(row: list[str]) -> tuple[str, ...]:
    """What each cell of a row holds: nothing, a number, or text."""
    return tuple("" if not cell.strip() else "9" if _NUMBER.match(cell.strip()) else "a" for cell in row)


def _extent(lines: list[Line]) -> tuple[float, float]:
    return min(line.x0 for line in lines), max(line.x1 for line in lines)


def _continues(previous: Table, table: Table, stream: list[Line], on_page: dict[int, list[int]], used: set[int]) -> bool:
    """Whether `table` opens the page after the one `previous` ends, with the same columns and no text between."""
    # a long table that runs to the foot of the page with no closing rule, its header repeated word for word over
    # the next page: the columns may be set apart otherwise on each page (a closed table's next is one of its own)
    repeated = previous.open_end and _repeated_header(previous, table)
    if not previous.rows or not table.rows or (len(previous.rows[0]) != len(table.rows[0]) and not repeated):
        return False
    if previous.caption is not None and table.caption is not None:
        return False
    if _same_columns(previous, table):
        pass  # the columns start where they did, under no header of its own: the same table goes on
    elif repeated and table.ruled and abs(previous.left - table.left) <= 40:
        pass
    elif (
        previous.ruled
        and table.ruled
        and len(previous.walls) == len(table.walls) > 0
        and _repeated_header(previous, table)
        and abs(previous.left - table.left) <= 40
    ):
        pass  # a grid closed on each page under its header repeated word for word, its columns set anew page by page
    elif previous.ruled and table.ruled:
        if abs((previous.right - previous.left) - (table.right - table.left)) > 6:
            return False  # the part that goes on is as wide (facing pages may shift it sideways)
        if previous.walls or table.walls:  # a grid is closed on every page: its columns must be the same
            if len(previous.walls) != len(table.walls) or any(abs(a - b) > 3 for a, b in zip(previous.walls, table.walls, strict=True)):
                return False
        elif not previous.open_end and not (
            previous.header and table.header and previous.rows[0] == table.rows[0] and abs(previous.left - table.left) <= 40
        ):
            # a closing rule ends a table, unless the next page repeats its header row at the same place (a long
            # table; tables side by side on each page are not one)
            return False
    elif abs(previous.left - table.left) > 6 or abs(previous.right - table.right) > 6:
        return False
    last_page = stream[max(previous.positions)].page
    first_page = stream[min(table.positions)].page
    if first_page != last_page + 1:
        return False
    sizes = sorted(stream[p].size for p in previous.positions)
    size = sizes[len(sizes) // 2]
    between = [
        p
        for p in [*on_page.get(last_page, []), *on_page.get(first_page, [])]
        if max(previous.positions) < p < min(table.positions)
        and p not in used
        and p != table.caption
        and not _in_frame(stream[p], previous if stream[p].page == last_page else table)
    ]
    return all(stream[p].size < size - 0.5 for p in between)  # footnotes at the foot of the page may sit between


def _in_frame(line: Line, table: Table) -> bool:
    """Whether a line lies inside a ruled table's frame: a label over a group of its rows (`Imports`, spanning the
    columns), the table's own, never text between two tables."""
    if table.extent is None:
        return False
    middle = (line.top + line.bottom) / 2
    return table.extent[0] < middle < table.extent[1] and table.left - 4 <= line.x0 and line.x1 <= table.right + 4


# -- tables from aligned text ---------------------------------------------------------------------


def _key_values(stream: list[Line], caption: int, sides: tuple[int, int], headings: dict, used: set[int]) -> Table | None:
    """A captioned table whose rows are `name = value` lines (parameters, constants) set apart from the
    text around them: two columns, split at the first `=`."""
    for step in sides:
        rows: list[int] = []
        previous = stream[caption]
        position = caption + step
        while 0 <= position < len(stream) and len(rows) < 60:
            line = stream[position]
            if position in used or position in headings or line.page != previous.page:
                break
            gap = abs(previous.top - line.top)
            if gap > (5.0 if not rows else 2.0) * max(line.size, 6.0):
                break
            text = clean_inline(line.text)
            if "=" not in text[1:] or TABLE_CAPTION.match(text) or FIGURE_CAPTION.match(text):
                break
            rows.append(position)
            previous = line
            position += step
        if len(rows) >= 2:
            rows.sort()
            cells = []
            for k in rows:
                name, _, value = clean_inline(stream[k].text).partition("=")
                cells.append([name.strip(), value.strip()])
            return Table(caption, rows, cells, False, *_extent([stream[k] for k in rows]))
    return None


def _column_starts(stream: list[Line], position: int, step: int) -> list[float]:
    """The cell starts of the lines cut into cells near `position` (eight lines in direction `step`), left to right."""
    starts: list[float] = []
    for near in range(position, position + 8 * step, step):
        if 0 <= near < len(stream) and stream[near].page == stream[position].page and len(stream[near].spans) >= 2:
            starts.extend(span[1] for span in stream[near].spans if all(abs(span[1] - known) > 3 for known in starts))
    return sorted(starts)


def _wrapped_cell(line: Line, starts: list[float]) -> bool:
    """A line in one piece that continues a cell: it starts under a column other than the first."""
    return len(line.spans) < 2 and any(abs(line.x0 - start) <= 3 for start in starts[1:])


def _aligned_rows(stream: list[Line], start: int, headings: dict, used: set[int], toc_pages: set[int], pages: dict[int, Page]) -> list[int]:
    """An uncaptioned table: consecutive lines cut into the same columns, each column starting at the same x, or
    standing in the same cells of vertical rules that run through them; a line in one piece under a column other
    than the first is a wrapped cell of the row above."""
    first = stream[start]
    if start in used or start in headings or first.page in toc_pages or len(first.spans) < 2:
        return []
    starts = [span[1] for span in first.spans]
    below = stream[start + 1] if start + 1 < len(stream) else None
    if below is not None and below.page == first.page and _centred_over(first.spans, below.spans):
        starts = [span[1] for span in below.spans]  # labels centred over the columns: the rows say where they start
    rows = [start]
    position = start + 1
    while position < len(stream) and position not in used and position not in headings:
        line = stream[position]
        if line.page == first.page and _cells_of_a_row([stream[row] for row in rows], line, starts):
            rows.append(position)  # cells the page gives after the rows they stand in: read there (`_table_cells`)
            position += 1
            continue
        if line.page != first.page or abs(stream[rows[-1]].top - line.top) > 3 * max(line.size, 6.0):
            break
        spans = line.spans
        if len(spans) < 2:
            if _wrapped_cell(line, starts) or (len(line.text.strip()) < 30 and abs(line.x0 - starts[0]) > 3):
                rows.append(position)
                position += 1
                continue
            break
        walls = pages[line.page].vrules if line.page in pages else []
        if (
            not _on_columns(spans, starts)
            and not _cells_under(stream[rows[-1]], line, starts)
            and not _same_walls(stream[rows[-1]], line, walls)
        ):
            break
        rows.append(position)
        position += 1
    while rows and len(stream[rows[-1]].spans) < 2:
        rows.pop()
    if sum(1 for row in rows if len(stream[row].spans) >= 2) < 3:
        return []
    # a row of dots (`. . .`) stands for rows left out of a listing or a file's lines: of neither kind
    shown = [row for row in rows if not _elided(stream[row])]
    code = sum(1 for row in shown if stream[row].mono) >= 0.8 * len(shown) and not _labels_over_code(stream[rows[0]])
    if code or _numbered_listing([stream[row] for row in rows]):
        return []  # columns of code or console output (`ls -l`, `ps`, an fstab): a listing, not a table
    if any(stream[row].mono for row in rows) and _inside_listing(stream, rows[0], rows[-1]):
        return []  # aligned assignments inside a listing (`family = {rm*,sf*},`): code, its lines set in code around it
    if sum(1 for row in rows if _equation_row(stream[row])) >= 0.6 * len(rows):
        return []  # a system of numbered equations aligned on their signs: formulas, not a table
    if sum(1 for row in rows if _relations_row(stream[row])) >= 0.6 * len(rows):
        return []  # displayed relations side by side (`1 ≤ r₁ < +∞   0 ≤ x₁ ≤ 4`): bounds of a problem, not a table
    return rows


_WORD = re.compile(r"[^\W\d_]+")  # one word of letters alone (`and`): what justification leaves on a cell's last line


def _centred_over(labels: list[tuple[str, float, float]], spans: list[tuple[str, float, float]]) -> bool:
    """Whether a line's pieces are labels centred over the columns of the line under it, the first column (the rows'
    names) left without one: each label's middle within a piece of its own, after the first, and the labels not
    starting where those pieces do (else the columns line up as they are)."""
    if len(labels) < 2 or len(spans) != len(labels) + 1:
        return False
    for (_, x0, x1), (_, y0, y1) in zip(labels, spans[1:], strict=True):
        if not y0 - 3 <= (x0 + x1) / 2 <= y1 + 3 or abs(x0 - y0) <= 3:
            return False
    return True


def _on_columns(spans: list[tuple[str, float, float]], starts: list[float]) -> bool:
    """Whether a line's pieces start where the columns start; one word standing apart after the piece starting the last
    column is that cell's, spread by justification (`\\Xendnotefontsize      and`, or `break-` hyphenated at the
    cell's end), not a column of its own."""
    apart = [span for span in spans if all(abs(span[1] - column) > 3 for column in starts)]
    if not apart:
        return True
    last = any(abs(span[1] - starts[-1]) <= 3 for span in spans)
    word = apart[0][0].strip().removesuffix(LINE_END_HYPHEN).removesuffix("-")
    return last and len(apart) == 1 and apart[0][1] > starts[-1] + 3 and bool(_WORD.fullmatch(word))


def _cells_under(above: Line, line: Line, starts: list[float]) -> bool:
    """Whether a line's cells stand under those of the row above one for one in columns that are not left-aligned: its
    first cell where the first column starts, each other one ending (figures set flush right) or centred where the
    cell above it does (`$ 40.40` over `80.80`; a label centred over its column's figures)."""
    if len(line.spans) != len(above.spans) or abs(line.spans[0][1] - starts[0]) > 3:
        return False
    return all(
        abs(x1 - b) <= 3 or abs((x0 + x1) - (a + b)) <= 6 for (_, x0, x1), (_, a, b) in zip(line.spans[1:], above.spans[1:], strict=True)
    )


def _same_walls(above: Line, line: Line, walls: list[tuple[float, float, float]]) -> bool:
    """Whether a line's pieces stand in the cells of vertical rules that run through it and the row above, each in a
    cell a piece of that row stands in: a grid ruled upright only, whose cells set what they hold at other x from
    row to row (glyphs centred by their advance, not by their ink), so that no column starts at one x."""
    low, high = min(above.bottom, line.bottom), max(above.top, line.top)
    crossing = sorted(x for x, bottom, top in walls if bottom - 1 <= low and high <= top + 1)
    if len(crossing) < 3:
        return False

    def cells(spans: list[tuple[str, float, float]]) -> set[int]:
        return {bisect.bisect(crossing, (x0 + x1) / 2) for _, x0, x1 in spans}

    mine = cells(line.spans)
    return len(mine) >= 2 and mine <= cells(above.spans) and all(0 < cell < len(crossing) for cell in mine)


def _labels_over_code(line: Line) -> bool:
    """Whether the first line of columns set in code is a header row: in the text's font, not the code's, each of its
    cells a label of a few words that ends no sentence (`Old command`, `Replaced with`). Console output heads its
    columns in its own font (`PID TTY TIME CMD`); a table of command names has labels over them."""
    cells = [span[0].strip() for span in line.spans]
    return not line.mono and all(cell and len(cell.split()) <= 4 and not cell.endswith((".", ":", ";", ",")) for cell in cells)


def _inside_listing(stream: list[Line], first: int, last: int) -> bool:
    """Whether code lies on both sides of a run of lines, on its page: one of the two lines before it and one of
    the two after it set in a fixed-pitch font, or brackets alone (`{`, `}`: too short for the font to tell)."""
    page = stream[first].page

    def code(lines: list[Line]) -> bool:
        return any(line.page == page and (line.mono or bool(_BRACKETS.match(line.text))) for line in lines)

    return code(stream[max(0, first - 2) : first]) and code(stream[last + 1 : last + 3])


_BRACKETS = re.compile(r"^[\s\[\]\(\)\{\}<>;,]+$")


_LEADER = re.compile(r"(?:\.\s?){5,}")


def _leadered(rows: list[list[str]]) -> bool:
    """Entries that run on to a page number over dot leaders (a command summary, an index, a list of
    sniplets): a list, like the printed contents, not a table."""
    return sum(1 for row in rows if any(_LEADER.search(cell) for cell in row)) >= 0.5 * len(rows)


# page or line numbers that go on to the next line: `1115,`, `2143, 363, 369,`, a range broken at its dash `1119–`
_RUN_ON_NUMBERS = re.compile(r"^(?:\d{1,5}(?:[–-]\d{1,5})?[a-z]?,\s*)*\d{1,5}(?:(?:[–-]\d{1,5})?[a-z]?,|[–-])$")


def _running_locators(rows: list[list[str]]) -> bool:
    """The wrapped lines of an index set in columns: an entry's long list of page or line numbers fills line after
    line, justified, so its numbers stand apart as if in cells. Half the cells or more are numbers that end in a
    comma or a dash (the list goes on below), in two columns at least: a table's cells do not end mid-list."""
    cells = [(k, cell.strip()) for row in rows for k, cell in enumerate(row) if cell.strip()]
    running = [k for k, cell in cells if _RUN_ON_NUMBERS.match(cell)]
    return len(cells) >= 4 and len(running) >= 0.5 * len(cells) and len(set(running)) >= 2


_CONTROL_WORD = re.compile(r"\\(?:[A-Za-z@]+|.)")  # `\decimalcomma`, `\,`: markup, printed as no letter of its own


def _source_and_result(rows: list[list[str]]) -> bool:
    """Examples beside what they print (`$1\\,234.5$` beside `1 234,5`): in most rows of two cells, the first cell's
    letters and digits, its control words left out, are where the second's begin, and in half of them or more the
    first cell is written differently (markup around them). Input and output side by side, not a table."""
    pairs = [[cell.strip() for cell in row if cell.strip()] for row in rows]
    pairs = [cells for cells in pairs if len(cells) == 2]
    same = rendered = 0
    for source, result in pairs:
        plain = re.sub(r"[\W_]", "", _CONTROL_WORD.sub("", source))
        if len(plain) < 2 or not re.sub(r"[\W_]", "", result).startswith(plain):
            continue
        if result.startswith(source):
            same += 1
        else:
            rendered += 1
    return len(pairs) >= 3 and len(pairs) >= 0.8 * len(rows) and same + rendered >= 0.75 * len(pairs) and rendered >= 0.5 * len(pairs)


def _list_not_table(table: Table, page: Page, last_page: int) -> bool:
    """Whether an uncaptioned table is something else set in columns: a glyph chart, entries over dot leaders, definition
    lines, an index's wrapped lines of numbers, printed contents entries (with or without leaders), a typeset math
    array or examples beside what they print (both unruled), code whose wide spaces fall inside brackets, or a list
    whose items hang from one mark each (`-`, `•`) set apart from their text. Cells cut by vertical rules are cut by
    them, whatever brackets they hold (an accent read as `{`)."""
    rows = table.rows
    if _glyph_chart(rows) or _leadered(rows) or _definition_lines(rows) or _running_locators(rows) or _marked_items(rows):
        return True
    if _alphabet_grid(rows) or _code_chart(rows):
        return True
    if not table.ruled and page.index == 0 and _field_list(rows):
        return True  # a title page's fields; further on, names with a colon before their values may be a parameter table
    if not table.ruled and (_math_array(rows) or _source_and_result(rows)):
        return True  # ruled off with a header (`Input`, `Output`), examples beside their results are a table
    return _contents_entries(rows, page, last_page) or (not table.walls and _split_brackets(rows))  # a rule is a boundary


_PICTURED = 0.1  # the share of a table's area that curves and bars may paint: past it the region is a picture


def _pictured(table: Table, page: Page, stream: list[Line], on_page: dict[int, list[int]]) -> float:
    """The share of a table's region painted by curves and fills that are no ground under its text: a ruled box
    holding a drawing and its code, a grid of plots, is an example or a figure, not a table. A ground holds the
    whole table (a box with rounded corners around it), or is a fill across the table (a shaded row, its one label
    in a corner), or one that holds text (`_lettered`: a shaded cell) or lines up with the grounds of the cells
    beside it (an empty cell of a shaded row); a bar, a swatch or a
    drawn shape stands alone, its labels in it. Frames, rules and a cell's diagonal paint no picture."""
    lines = [stream[position] for position in table.positions]
    left, right = table.left, table.right
    bottom, top = table.extent or (min(line.bottom for line in lines), max(line.top for line in lines))
    page_lines = [stream[position] for position in on_page.get(page.index, [])]
    fills = [shape[:4] for shape in page.shapes if shape[4] == "fill"]
    area = 0.0
    for x0, y0, x1, y1, kind in page.shapes:
        width, height = min(x1, right) - max(x0, left), min(y1, top) - max(y0, bottom)
        if width <= 0 or height <= 0 or kind == "frame" or (kind == "line" and _corner_to_corner((x0, y0, x1, y1), page)):
            continue
        around = x0 <= left + 2 and right - 2 <= x1 and y0 <= bottom + 2 and top - 2 <= y1  # a box around the whole table
        band = kind == "fill" and x1 - x0 >= 0.9 * (right - left)  # a shaded row across the table
        if around or band or (kind == "fill" and (_lettered((x0, y0, x1, y1), page_lines) or _in_a_row((x0, y0, x1, y1), fills))):
            continue
        area += width * height
    return area / max(1.0, (right - left) * (top - bottom))


_ROW_LABEL_MARK = re.compile(r"[\[\]:]")  # a setting's brackets, a caption-like `name:`: no row's label (nor code, `_CODE_MARK`)


def _labelled_rows(table: Table) -> bool:
    """Whether a ruled region's first column names each of its rows (`x`, `f'(x)`, `Signe de f'(x)`): a sign or
    variation table draws arrows and arcs in its cells, yet is a table. Each row's first cell is a short label
    holding a letter, no two alike, none code or a setting; the first row says something beside its label, and
    no cell of it is code; and the cells beside the labels hold values: half of them or more a figure or a sign
    (`−∞`, `+ 0 −`). A picture's regions hold tick numbers, code beside what it draws, or the names of its points
    and anchors (`A`, `NW`) around them."""
    rows = table.rows
    if not table.ruled or len(rows) < 2 or any(len(row) < 2 for row in rows):
        return False
    labels = [row[0].strip() for row in rows]
    if len(set(labels)) < len(labels) or not any(cell.strip() for cell in rows[0][1:]):
        return False
    if any(
        not label or len(label) > 30 or _ROW_LABEL_MARK.search(label) or _CODE_MARK.search(label) or not _WORD.search(label)
        for label in labels
    ):
        return False
    if any(re.search(r"[\\{}=]", cell) for cell in rows[0][1:]):
        return False
    cells = [cell for row in rows for cell in row[1:] if cell.strip()]
    return 2 * sum(1 for cell in cells if _VALUE_MARK.search(cell)) >= len(cells)


_VALUE_MARK = re.compile(r"[0-9+\-−±∞]")  # a figure or a sign: what a sign or variation table's cells hold


def _corner_to_corner(box: Box, page: Page) -> bool:
    """Whether a slanted line runs from corner to corner of a ruled cell (a header's corner split in two): its ends
    lie on the page's vertical and horizontal rules."""
    upright = [x for x, _, _ in page.vrules]
    flat = [y for _, _, y in page.hrules]
    return all(any(abs(x - edge) <= 2 for x in upright) for edge in (box[0], box[2])) and all(
        any(abs(y - edge) <= 2 for y in flat) for edge in (box[1], box[3])
    )


def _in_a_row(box: Box, fills: list[Box]) -> bool:
    """Whether another fill of the same height abuts a fill on its left or right: the grounds of a row's cells."""
    return any(
        abs(other[1] - box[1]) <= 1 and abs(other[3] - box[3]) <= 1 and (abs(other[0] - box[2]) <= 2 or abs(box[0] - other[2]) <= 2)
        for other in fills
        if other != box
    )


def _lettered(box: Box, lines: list[Line]) -> bool:
    """Whether a filled box holds text (a shaded cell or row): pieces of lines inside it cover a twentieth of it or
    more. A bar or a swatch holds none, or a label or two in a corner."""
    covered = 0.0
    for line in lines:
        if box[1] - 1 <= (line.top + line.bottom) / 2 <= box[3] + 1:
            for _, x0, x1 in line.spans or [(line.text, line.x0, line.x1)]:
                if box[0] - 2 <= x0 and x1 <= box[2] + 2:
                    covered += (x1 - x0) * (line.top - line.bottom)
    return covered >= 0.05 * (box[2] - box[0]) * (box[3] - box[1])


def _split_brackets(rows: list[list[str]]) -> bool:
    """Code set in a proportional font with wide spaces in it (`R = {50,      },`): a cell opens a bracket that a
    later cell of its row closes, in a third of the rows or more (two at least). A gap inside brackets is no column
    boundary; a cell that is a bracket alone (a glyph chart, a quoted delimiter) does not count."""
    split = 0
    for row in rows:
        cells = [cell for cell in row if cell.strip()]
        depth = 0
        for cell in cells[:-1]:
            depth += sum(cell.count(bracket) for bracket in "{([") - sum(cell.count(bracket) for bracket in "})]")
            if depth > 0 and re.search(r"[^\W_]", cell):
                split += 1
                break
    return split >= 2 and 3 * split >= len(rows)


def _text_in_columns(rows: list[list[str]], lines: list[Line]) -> bool:
    """Whether an uncaptioned table is running text or a drawing that happens to stand in columns: an index set in
    two or three columns, notation drawn with the glyphs of a symbol or music font, or two texts side by side with
    their line numbers. None of them has columns holding different kinds of data."""
    return _index_entries(rows) or _glyph_drawing(rows) or _drawn(lines) or _numbered_prose(rows)


def _drawn(lines: list[Line]) -> bool:
    """Music on staves or a diagram drawn with a font: half its characters or more are pictures (`Line.pictures`:
    notes and pieces of a font that draws, which read as letters), or a quarter of them on half its lines or more
    (the words of a song under its notes, a diagram's labels), so its rules are staff lines or a diagram's, not a
    table's. A table with an icon in each row keeps its words and numbers for most of its characters."""
    weights = [len(line.text.replace(" ", "")) for line in lines]
    total = sum(weights)
    if not total:
        return False
    share = sum(line.pictures * weight for line, weight in zip(lines, weights, strict=True)) / total
    return share >= 0.5 or (share >= 0.25 and sum(1 for line in lines if line.pictures) >= 0.5 * len(lines))


# a locator of an index entry: a page or line number, a range of them, a roman page number (`1364`, `12–15`, `xiv`)
_LOCATOR = r"(?:\d{1,5}(?:[–-]\d{1,5})?[a-z]?|[ivxlc]{1,6})"
_LOCATORS = rf"{_LOCATOR}(?:,\s*{_LOCATOR})*,?"
_DOTS = r"(?:\.\s?){2,}"
# `\checkcols . . . 1364, 1382`, `frame, 12, 40`, `\@@par 34, 578` (no room for leaders: a list of two or more)
_INDEX_ENTRY = re.compile(rf"^(?=.*[^\W\d_]).+?(?:\s*{_DOTS}\s*|,\s+|\s+(?={_LOCATOR},))(?:{_LOCATORS})$")
_INDEX_LOCATORS = re.compile(rf"^(?:{_DOTS}\s*)?{_LOCATORS}$")  # the numbers of the entry above, wrapped; or after its leaders
_INDEX_TERM = re.compile(rf"^(?=.*[^\W\d_]).+?(?:\s*{_DOTS})?$")  # a term whose locators stand in a cell of their own
_INDEX_LETTER = re.compile(r"^[^\W\d_]$")  # a letter group's heading (`A`, `B`)


def _index_entries(rows: list[list[str]]) -> bool:
    """An index set in columns (PDFium may give the columns' lines side by side as one line): nearly every cell an
    entry ending in its page or line numbers (over dot leaders or after a comma), numbers wrapped from the entry
    above, a term whose numbers stand in the next cell, or a letter group's heading; several entries list two
    numbers or more or reach them over leaders (a table of names and single numbers is data)."""
    cells = 0
    entries = 0
    others = 0  # cells of another kind: a sentence, a header, a word alone
    listed = 0  # entries that read as an index's, not as a name and a number
    for row in rows:
        filled = [cell.strip() for cell in row if cell.strip()]
        for k, cell in enumerate(filled):
            cells += 1
            following = filled[k + 1] if k + 1 < len(filled) else ""
            if _INDEX_ENTRY.match(cell):
                entries += 1
                listed += bool(re.search(_DOTS, cell) or re.search(rf"{_LOCATOR},\s*{_LOCATOR}", cell))
            elif _INDEX_TERM.match(cell) and following and _INDEX_LOCATORS.match(following) and not _NUMBER.match(cell):
                entries += 1
                listed += bool(re.search(_DOTS, cell + following) or "," in following)
            elif _INDEX_LOCATORS.match(cell) or _INDEX_LETTER.match(cell) or re.fullmatch(_DOTS, cell):
                continue
            else:
                others += 1
    # wrapped numbers may outnumber the entries (long lists of lines); a few cells of another kind may be a heading
    return cells >= 4 and others <= 0.1 * cells and entries >= 0.25 * cells and listed >= max(2, 0.3 * entries)


def _glyph_drawing(rows: list[list[str]]) -> bool:
    """Notation drawn with the glyphs of a symbol font (notes on a staff, chord diagrams, dingbats): nearly every
    cell holds neither a letter nor a digit, and no column is a column of labels. A picture, not a table."""
    cells = [cell.strip() for row in rows for cell in row if cell.strip()]
    if len(cells) < 4 or sum(1 for cell in cells if not any(char.isalnum() for char in cell)) < 0.8 * len(cells):
        return False
    width = max(len(row) for row in rows)
    for column in range(width):
        filled = [row[column].strip() for row in rows if column < len(row) and row[column].strip()]
        if filled and sum(1 for cell in filled if any(char.isalnum() for char in cell)) >= 0.5 * len(filled):
            return False  # a column of names or numbers: a feature matrix of check marks is a table
    return True


_LINE_NUMBER = re.compile(r"^(\d{1,4})([A-Za-z]{0,2})$")  # `7`, `7R` (the line of the right-hand text)


def _numbered_prose(rows: list[list[str]]) -> bool:
    """Running prose set in columns with its line numbers (a critical edition's text beside its translation, each
    line numbered `1`…`19` or `1R`…`19R`): at one end of the rows, numbers of one kind rising from row to row; the
    other cells lines of prose (four words or more) that run on from one row to the next (no sentence ends at most
    row ends); where the numbers count every line (rising by one), a heading may stand among the lines (`2.1 Right
    section  5R`). A table's rows each hold an entry of their own."""
    if len(rows) < 3:
        return False
    filled = [[cell.strip() for cell in row if cell.strip()] for row in rows]
    for end in (0, -1):
        numbers = [(int(match.group(1)), match.group(2)) for cells in filled if cells and (match := _LINE_NUMBER.match(cells[end]))]
        if len(numbers) < 3 or len(numbers) < 0.5 * len(rows) or len({suffix for _, suffix in numbers}) > 1:
            continue
        if not all(b > a for (a, _), (b, _) in itertools.pairwise(numbers)):
            continue
        texts = [cell for cells in filled for cell in cells if not _LINE_NUMBER.match(cell)]
        prose = [text for text in texts if _prose_line(text)]
        every_line = all(b == a + 1 for (a, _), (b, _) in itertools.pairwise(numbers))
        if len(prose) < (0.6 if every_line else 0.8) * len(texts) or len(prose) < (2 if every_line else 3):
            continue
        running = sum(1 for text in prose if not text.endswith((".", "!", "?", ":")) or text[:1].islower())
        if running >= 0.6 * len(prose):
            return True
    return False


def _prose_line(text: str) -> bool:
    """A line of running prose: four words or more, most of them words of letters once the punctuation around
    them is set aside (`dapibus.`, `(véase`, a hyphen at the line's end `pul-`)."""
    words = text.split()
    return len(words) >= 4 and sum(1 for word in words if word.strip(".,;:!?()«»\"'“”‘’-").isalpha()) >= 0.6 * len(words)


_PAGE_NUMBER = re.compile(r"^\d{1,4}$")
# a contents entry's own number before its title: `31 Centered …`, `5.1 The parameters`, `A.2 Tables`
# or a chapter's number in Chinese or Japanese (`第 3 节 用户手册`, `第2章`)
_ENTRY_NUMBER = re.compile(
    r"^(?:(?P<number>\d{1,3}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+)\.?|第\s?(?P<counted>\d{1,3})\s?[章节節部篇])\s*(?<=\s|[章节節部篇])(?P<title>\S.*)$"
)
_BARE_NUMBER = re.compile(r"^(?:\d{1,3}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+)\.?$")
_TRAILING_LEADER = re.compile(r"(?:\s*\.){2,}\s*$")


def _contents_entries(rows: list[list[str]], page: Page, last_page: int) -> bool:
    """Entries of a printed contents set in two columns without (or with short) dot leaders: each row a title and a
    page number, the page numbers never falling, none past the document's last page nor (on a page numbered in
    arabic figures) before the page the list stands on; and the titles numbered in rising order (`31 Centered …`,
    `5.1 The parameters`), or, unnumbered, titles of several words whose pages jump (consecutive numbers count
    something else). Set in a table, a contents is still a list of pages, not data."""
    entries = [[cell.strip() for cell in row if cell.strip()] for row in rows]
    # a number set in a column of its own before its title (`2.1.1 | Label styles | 5`) is the title's number
    entries = [[f"{cells[0]} {cells[1]}", *cells[2:]] if len(cells) == 3 and _BARE_NUMBER.match(cells[0]) else cells for cells in entries]
    entries = [cells for cells in entries if cells]
    listed = [(cells[0], int(cells[1])) for cells in entries if len(cells) == 2 and _PAGE_NUMBER.match(cells[1])]
    if len(listed) < 3 or len(listed) < len(entries) - 1:
        return False  # one row may be something else (a part's title without its page)
    numbers = [number for _, number in listed]
    if any(b < a for a, b in itertools.pairwise(numbers)) or (last_page and numbers[-1] > last_page + 1):
        return False
    if page.label.isdecimal() and numbers[0] < page.printed:
        return False  # a contents names the pages after it (front matter numbered in roman figures restarts at 1)
    titles = [_TRAILING_LEADER.sub("", title) for title, _ in listed]
    if not all(re.search(r"[^\W\d_]{2}", title) for title in titles):
        return False  # every entry has a title in words
    paths = [_path_key(match.group("number") or match.group("counted")) for title in titles if (match := _ENTRY_NUMBER.match(title))]
    # one unnumbered entry among a few numbered ones is a part of the book without a number (`References`)
    if len(paths) >= 3 and len(titles) - len(paths) <= max(1, 0.2 * len(titles)):
        return all(a < b for a, b in itertools.pairwise(paths))
    # a title in words: two or more from a capital, or, in a script without capitals, two ideographs or more
    worded = sum(
        1
        for title in titles
        if ((len(title.split()) >= 2 and title[:1].isupper()) or len(_IDEOGRAPH.findall(title)) >= 2)
        and not title.endswith((".", ";", ",", ":"))
    )
    jumps = any(b - a != 1 for a, b in itertools.pairwise(numbers))
    return len(listed) >= 4 and worded >= 0.8 * len(titles) and jumps


def _path_key(number: str) -> tuple[int, ...]:
    """A clause number as numbers to compare (`A.2` is 1000 + the letter, 2: appendices after the chapters)."""
    return tuple(1000 + ord(part) - ord("A") if part.isalpha() else int(part) for part in number.split("."))


_SCRIPT_CHARS = "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₔₕᵢⱼₖₗₘₙₚₛₜ⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿ′″"
# a math operand: one to three letters (a variable, `abc`, Greek) or a number, each with its scripts (`a₃₂`, `x^{n}`),
# run together (`H₂O`)
_OPERAND = re.compile(rf"^(?:(?:[^\W\d_]{{1,3}}|\d+(?:[.,]\d+)?)(?:[{_SCRIPT_CHARS}]+|[_^]\{{[^{{}}]{{1,12}}\}})*){{1,3}}$")
_OPERATOR = re.compile(r"^[-+−=×·/<>≤≥≠≈≡±∓*∈∉⊂⊆∪∩→←↔⇒⇔∑∏∫∂∇]+$")


def _math_cell(cell: str) -> bool:
    """A cell of a typeset formula: operands (single letters or short names with scripts, numbers) and operators,
    with at least one script or operator (a lone `e` or `m` is no formula: it may be a glyph or a code)."""
    tokens = cell.split()
    if not tokens or not all(_OPERAND.match(token) or _OPERATOR.match(token) for token in tokens):
        return False
    if not any(re.search(r"[^\W\d_]", token) for token in tokens):
        return False  # numbers alone are data
    return any(_OPERATOR.match(token) for token in tokens) or any(re.search(rf"[{_SCRIPT_CHARS}]|[_^]\{{", token) for token in tokens)


def _math_array(rows: list[list[str]]) -> bool:
    """A typeset math array or a system of aligned equations (`a₂₁ + a₂₂ = a₂₃` set in columns, a matrix beside
    row labels): most of its cells are formulas, in two rows or more. Formulas set in columns are not a table."""
    cells = [cell.strip() for row in rows for cell in row if cell.strip()]
    math_rows = sum(1 for row in rows if any(_math_cell(cell.strip()) for cell in row))
    return len(cells) >= 4 and math_rows >= 2 and sum(1 for cell in cells if _math_cell(cell)) > 0.5 * len(cells)


_CATEGORY = re.compile(r"^\[[^\[\]]{3,60}\]$")


def _definition_lines(rows: list[list[str]]) -> bool:
    """Definition lines of a reference manual: a signature, its category in brackets at the right margin
    (Texinfo's `Array2<T> (int n)  [Constructor]`): headings of entries, not rows of a table."""
    ends = [next((cell for cell in reversed(row) if cell.strip()), "") for row in rows]
    return len(rows) >= 2 and sum(1 for cell in ends if _CATEGORY.match(cell.strip())) >= 0.8 * len(rows)


_LIST_MARK = re.compile(r"^[-–—•◦▪▸‣∙●○■□*►➢]$")


def _marked_items(rows: list[list[str]]) -> bool:
    """A list whose every item hangs from the same mark (`-`, `•`), the mark set apart from its text as a word
    processor sets it: one column of marks beside one of items is a bulleted list, not a table."""
    filled = [[cell.strip() for cell in row if cell.strip()] for row in rows]
    marks = {cells[0] for cells in filled if cells}
    return len(rows) >= 2 and all(len(cells) == 2 for cells in filled) and len(marks) == 1 and bool(_LIST_MARK.match(marks.pop()))


def _field_list(rows: list[list[str]]) -> bool:
    """A document's fields, each name closed by a colon before its value (`Date:  2022-10-03`, `Version:  3.23`,
    `Manual section:  5`), as a title page lists them: a list of the document's data, not a table's records."""
    filled = [[cell.strip() for cell in row if cell.strip()] for row in rows]
    return len(rows) >= 2 and all(len(cells) == 2 and cells[0].endswith(":") and len(cells[0].split()) <= 3 for cells in filled)


def _glyph_chart(rows: list[list[str]]) -> bool:
    """A grid of single characters (a font's code chart: glyphs under hex digits, a symbol grid): a picture of
    characters, not a table whose columns hold different kinds of data. Six columns or more, nearly every cell
    one character (a letter and its accent, which PDFium may give as two; a ligature, `ffi`)."""
    cells = [cell.strip() for row in rows for cell in row if cell.strip()]
    if len(rows) < 2 or max(len(row) for row in rows) < 6 or len(cells) < 12:
        return False
    if sum(1 for cell in cells if _NUMBER.match(cell)) >= 0.5 * len(cells):
        return False  # a grid of numbers is data (a glyph beside its code digit, `√0`, is still a glyph)
    if sum(1 for cell in cells if len(cell.replace(" ", "")) <= 3) >= 0.85 * len(cells):
        return True
    # a chart ruled in blocks of four (`0 1 2 3` over the glyphs of four code points): each cell many glyphs
    glyphs = [piece for cell in cells for piece in cell.split()]
    if sum(1 for piece in glyphs if piece.isdigit()) >= 0.5 * len(glyphs):
        return False  # short numbers, many to a cell: data
    return len(glyphs) >= 2 * len(cells) and sum(1 for piece in glyphs if len(piece) <= 3) >= 0.9 * len(glyphs)


# `00x`, `1x`, `Ax`: a font chart's run of codes (`´00x`, `˝1x`, its marks dropped); not a variable (`bx`)
_CODE_ROW = re.compile(r"^(?:\d{1,3}|[0-9A-F]{1,2})x$")


def _code_chart(rows: list[list[str]]) -> bool:
    """A font's code chart: most rows led by the label of their run of codes (`´00x`, `´01x`, … in octal, `˝0x` in
    hex; two labels where PDFium gives two printed rows as one), the glyphs beside them: a picture of a font, not data."""
    labels = 0
    for row in rows:
        tokens = ["".join(char for char in token if char.isalnum()) for token in (row[0].split() if row else [])]
        if tokens and all(_CODE_ROW.match(token) for token in tokens):
            labels += 1
    return labels >= 4 and labels >= 0.6 * len(rows)


_GRID_LETTER = re.compile(r"^([^\W\d_])[.·•]?$")  # `A`, `J.`: one letter, maybe marked with a dot


def _alphabet_grid(rows: list[list[str]]) -> bool:
    """A grid of single letters that runs through the alphabet in reading order (`A B C` / `D E F` / `G H I`: a
    cipher's key, a keypad, the labels of a drawing's squares): a diagram of letters, not rows of data."""
    cells = [cell.strip() for row in rows for cell in row]
    if len(rows) < 2 or len(cells) < 6:
        return False
    letters = [match.group(1) for match in map(_GRID_LETTER.match, cells) if match]
    if len(letters) != len(cells):
        return False  # an empty cell or a word: a table of letter codes and their values
    return all(ord(b) - ord(a) == 1 for a, b in itertools.pairwise(letters))


_NUMBERED_CODE = re.compile(r"^(\d{1,5})\s+(\S.*)$")  # `145 \newtoks\fenlei`: a line number set close to its code


def _numbered_listing(lines: list[Line]) -> bool:
    """Lines led or ended by a line number that rises by one from line to line (a numbered code listing, a
    docstrip source, prose numbered in the margin): the numbers count lines, they are no column of data. A number
    set close to the code it numbers is part of the first cell; it counts when the rest of that cell is code. A
    number between a margin's prose and the code it numbers counts when code follows it."""
    split = [line for line in lines if len(line.spans) >= 2]
    for end in (0, -1):
        read = _figures([line.spans[end][0].strip() for line in split])
        numbers = [number for number in read if number is not None]
        if end == 0 and len(numbers) < 3:
            led = [_NUMBERED_CODE.match(line.spans[0][0].strip()) for line in split]
            numbers = [int(match.group(1)) for match in led if match and _value_kind(match.group(2)) == "code"]
        if len(numbers) >= 3 and len(numbers) >= 0.8 * len(split) and _counting(numbers):
            return True
    beside = [_number_before_code(line.spans) for line in lines]
    read = _figures([pair[0] for pair in beside if pair])
    numbers = [number for number in read if number is not None]
    coded = any(not pair[0].isdecimal() for pair in beside if pair)
    return len(numbers) >= (2 if coded else 3) and len(numbers) >= 0.8 * len(lines) and _counting(numbers)


def _counting(numbers: list[int]) -> bool:
    """Whether numbers rise by one from each to the next, nearly everywhere (four steps in five)."""
    return sum(1 for a, b in itertools.pairwise(numbers) if b == a + 1) >= 0.8 * (len(numbers) - 1)


def _number_before_code(spans: list[tuple[str, float, float]]) -> tuple[str, str] | None:
    """The first piece of a line that opens with a number-like word with code after it, in that piece or the next
    (`12  \\def\\x{`, `12 }`): the word and the code."""
    for k, (text, _, _) in enumerate(spans):
        word, _, rest = text.strip().partition(" ")
        if not rest.strip() and k + 1 < len(spans):
            rest = spans[k + 1][0]
        figures = word.isdecimal() or (word.isalpha() and all(ord(char) > 127 for char in word))
        if figures and rest.strip() and _value_kind(rest) in ("code", "symbol"):
            return word, rest
    return None


def _figures(tokens: list[str]) -> list[int | None]:
    """Each token read as a whole number: decimal digits, or figures of a font that maps them to no Unicode digit:
    words of two or more letters outside ASCII, all drawn from one run of ten consecutive code points, the lowest
    of them read as 0 (line numbers that come out as `ūŪŪŬ`, `ūŪŪŭ`). Anything else reads as None."""
    coded = [token for token in tokens if len(token) >= 2 and token.isalpha() and all(ord(char) > 127 for char in token)]
    points = [ord(char) for token in coded for char in token]
    zero = min(points, default=0)
    if points and max(points) - zero > 9:
        coded = []
    read: list[int | None] = []
    for token in tokens:
        if token.isdecimal():
            read.append(int(token))
        elif token in coded:
            read.append(int("".join(str(ord(char) - zero) for char in token)))
        else:
            read.append(None)
    return read


_EQUATION_NUMBER = re.compile(r"^\(\d{1,3}(?:\.\d{1,2})?[a-z]?\)$")
_RELATION = re.compile(r"[=≡≤≥≠≈∈<>:]")


def _elided(line: Line) -> bool:
    """A row of dots alone (`. . .`, `⋮`, `# …`): it stands for rows left out."""
    text = line.text.replace(" ", "")
    return text.count(".") + 3 * sum(text.count(dots) for dots in "…⋮⋯") >= 3 and not any(char.isalnum() for char in text)


# a relation between two terms: `x₁ ≤ 4`, `r = 2x`, `1 < n` (a sign of order set apart: not a tag's `<`)
_RELATION_CELL = re.compile(r"\S\s*[=≤≥≠≈≡]\s*\S|\S\s[<>]\s\S")


def _relations_row(line: Line) -> bool:
    """A row of two cells or more, each a relation between terms (`1 ≤ r₁ < +∞`, `0 ≤ x₁ ≤ 4 (continuous)`) with no
    word outside a remark in parentheses: formulas displayed side by side."""
    cells = [span[0].strip() for span in line.spans if span[0].strip()]
    return len(cells) >= 2 and all(_RELATION_CELL.search(cell) and not _WORDS_OUTSIDE.search(_ASIDE.sub("", cell)) for cell in cells)


_ASIDE = re.compile(r"\([^()]*\)")  # a remark in parentheses
_WORDS_OUTSIDE = re.compile(r"[^\W\d_]{3,}")  # a word: a relation explained in words (`checks whether x < y`) is text


def _equation_row(line: Line) -> bool:
    """A numbered equation set in columns: `(104)  I_s  ≡  a` (its number alone at one end, a relation sign)."""
    cells = [span[0].strip() for span in line.spans]
    numbered = bool(cells) and (_EQUATION_NUMBER.match(cells[0]) or _EQUATION_NUMBER.match(cells[-1]))
    return bool(numbered) and bool(_RELATION.search(" ".join(cells)))


# -- records: what every table without a caption must show -----------------------------------------

# marks of a name a program reads (`\\mathrm`, `pub_xc`, `{6}`, `key=`, `<tag>`, `/Name`, `@INBOOK`, `grid()`)
_CODE_MARK = re.compile(r"[\\_{}=<>@#/|$%&^~]|[^\W\d_]\d|\d[^\W\d_]|[a-z][A-Z]|^[.\-]\w|\w\(\)")
_WRAPPING = ".,;:!?()[]\"'“”‘’«»„"  # punctuation around words in running text
# a number with a unit after it (`0pt`, `12 mm`, `5 %`, `m³`): a quantity
_QUANTITY = re.compile(r"^[-+−±~≈<>≤≥]?[$€£]?\d[\d.,:/×]*\s?(?:%|[^\W\d_]{1,4}[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]*)$")
# what ends a line of code or of a list running on to the next line: a separator, an opening bracket, a comment mark
# Han ideographs (the Kangxi radicals too, which some fonts map their ideographs to), kana and Hangul syllables
_IDEOGRAPH = re.compile(r"[\u2e80-\u2fdf\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CJK_STOPS = re.compile(r"[\u3001\u3002\uff0c\uff1b\uff1a\uff01\uff1f\uff08\uff09\u300c-\u300f]")  # 、。，；：！？（）「」『』
_RUNS_ON = (",", ";", "%", "{", "(", "[", "\\", "&", "=")
_DECIMAL = re.compile(r"^[-+−]?\d*[.,]\d+$")
_MEASURE = re.compile(r"^[-+−]?(?:\d[\d.,]*|[.,]\d+)\s?[^\W\d_]{1,4}$")  # a length with its unit (`.5in`, `12pt`), a setting


def _value_kind(cell: str) -> str:
    """The kind of value a cell holds, for telling records from text: `number` (as many digits as letters or more, or a
    number with its unit: `13.65`, `21(2):33–55`, `0pt`), `symbol` (no letter or digit, or two characters at most: `+`,
    `"<`, `α`, `kg`), `code` (a name a program reads: `\\mathrm{A}`, `T2A`, `/Name`, `.html`), `words` (letters alone,
    three words at most, as a name reads: `aluminium sulfate`, `(kelvin) mass`; or up to seven ideographs), `prose`
    (letters alone, more words or a sentence's end: `Use compatibility.`, `保留使用英文的标题样式。`), else `mixed`."""
    text = cell.strip()
    if not text:
        return ""
    letters = sum(map(str.isalpha, text))  # counted in C: this runs for every cell of every candidate table
    digits = sum(map(str.isdigit, text))
    if digits and (digits >= letters or _QUANTITY.match(text)):
        return "number"
    if (not letters and not digits) or len(text.replace(" ", "")) <= 2:
        return "symbol"
    ideographs = len(_IDEOGRAPH.findall(text))
    if ideographs >= 8:
        return "prose"  # a sentence, whatever names or figures stand in it (`平面上の３点 p1,p2,p3 に対し角 p1p2p3 を返す`)
    if _CODE_MARK.search(text):
        return "code"
    if ideographs >= 2:  # Chinese, Japanese: words are not set apart by spaces, a sentence ends with its own stops
        rest = [word.strip(_WRAPPING) for word in _IDEOGRAPH.sub(" ", _CJK_STOPS.sub(" ", text)).split()]
        if not all(not word or word.isalpha() for word in rest):
            return "mixed"
        return "prose" if _CJK_STOPS.search(text) else "words"
    words = [word.strip(_WRAPPING) for word in text.split()]
    if not all(not word or word.replace("-", "").replace("'", "").replace("’", "").isalpha() for word in words):
        return "mixed"
    return "prose" if len(words) > 3 or (len(words) >= 2 and text.endswith(".")) else "words"


def _column_kind(cells: list[str]) -> str:
    """The kind most of a column's filled cells hold (four in five of them), else `mixed`."""
    kinds = [_value_kind(cell) for cell in cells if cell.strip()]
    if not kinds:
        return ""
    kind = max(set(kinds), key=kinds.count)
    return kind if kinds.count(kind) >= 0.8 * len(kinds) else "mixed"


def _label_row(rows: list[list[str]], columns: list[int], lines: list[Line]) -> bool:
    """Whether the first row heads the columns: a label of a few words over every column, none ending a sentence, and
    the row set apart from those under it: by a bold face, by labels over a column of another kind of value
    (`extension` over `.html`, `Price` over `13.65`), or by a capital over a column whose cells start in lower case
    (`Option` over `pscoord`)."""
    first = [rows[0][k].strip() for k in columns]
    if len(rows) < 3 or not all(first) or any(len(cell.split()) > 5 or cell.endswith((".", ";", ",")) for cell in first):
        return False
    if any(_value_kind(cell) == "number" for cell in first):
        return False
    if lines and lines[0].bold_prefix >= len(lines[0].text.rstrip()) - 1 and not all(line.bold_prefix for line in lines[1:]):
        return True
    for cell, k in zip(first, columns, strict=True):
        below = [row[k] for row in rows[1:] if row[k]]
        kind = _column_kind(below)
        if kind not in ("words", "prose", "mixed", _value_kind(cell)):
            return True
        label = _value_kind(cell) in ("words", "prose") and cell[:1].isupper() and any(char.islower() for char in cell)
        if label and sum(1 for other in below if other[:1].islower() or not other[:1].isalpha()) >= 0.8 * len(below):
            return True
    return False


_REMARK = re.compile(r"^\([^()]*\)$")  # a remark in parentheses, the whole cell


def _not_records(table: Table, lines: list[Line]) -> bool:
    """Whether an uncaptioned candidate's rows are not records, whatever set it in columns. A table's columns each
    hold one kind of value row after row, and its rows stand each on their own. Not a table:
    - no row with two cells filled (a figure's legend, labels beside a drawing);
    - set without rules, two columns whose second names or describes the first in words, under no header row (a
      glossary, an option list: `AlF₃  aluminium trifluoride`, `+  addition.`): a list of terms, not data; or whose
      second holds one value in every row (`SCAN_UTF8_1  17`, `SCAN_UTF8_2  17`; not a length, `.5in`, which settings
      may share): names sharing it, not records;
    - set without rules, rows whose last cell runs on to the next line as code or a list does (`pages = {79-83},`,
      `return GLUE;`, `lalq8%`): lines of text cut at a wide space, not records;
    - under no header row, every column of the same kind and length, nearly every cell a value of its own (a grid of
      names, a matrix, a magic square): a list or a formula set in columns, not columns of different kinds of data;
    - set without rules, two columns whose second is a remark in parentheses in every row: examples and their kind."""
    rows = [[cell.strip() for cell in row] for row in table.rows]
    if not any(sum(1 for cell in row if cell) >= 2 for row in rows):
        return True
    width = max(len(row) for row in rows)
    rows = [row + [""] * (width - len(row)) for row in rows]
    columns = [k for k in range(width) if 2 * sum(1 for row in rows if row[k]) > len(rows)]
    if len(columns) < 2:
        return False  # cells scattered over columns none of which is filled in most rows: left to the other tests
    remarks = [row[columns[-1]] for row in rows]
    if not table.ruled and len(columns) == 2 and len(rows) >= 3 and all(_REMARK.match(remark) for remark in remarks):
        return True  # examples each followed by its kind in parentheses (`a[i] < 1.5   (relational expression)`)
    header = _label_row(rows, columns, lines) or (table.ruled and table.header)  # a ruled table's header: bold, or ruled off
    body = rows[1:] if header else rows
    kinds = [_column_kind([row[k] for row in body]) for k in columns]
    if not table.ruled and not header:
        names = [row[columns[-1]] for row in rows if row[columns[-1]]]
        worded = sum(1 for name in names if _value_kind(name) in ("words", "prose"))
        # a term and its name or description; a few words over and over (`true`, `false`) are values, not names
        if len(columns) == 2 and worded >= 0.8 * len(names) and len(set(names)) >= 0.8 * len(names):
            return True
        if len(columns) == 2 and len(names) >= 3 and len(set(names)) == 1 and not _MEASURE.match(names[0]):
            return True  # one value beside every name (index entries of one page, keys of one type): no record differs
        ends = [next(cell for cell in reversed(row) if cell) for row in rows if any(row)]
        if len(ends) >= 3 and sum(1 for cell in ends if cell.endswith(_RUNS_ON)) >= 0.75 * len(ends):
            return True
    if header or len(set(kinds)) > 1 or kinds[0] == "mixed":
        return False
    # cells of one kind and of one length everywhere, each an item of its own; a column of short numbers beside one of
    # long ones is data, and so are values that come back, in a column or along a row (`serif`, `true`; a word beside
    # its forms, `Fas-sa-de`, `Fassa-de`), and measurements (decimal fractions: `0.433945`), unlike a matrix's whole numbers
    lengths = [statistics.median(len(row[k]) for row in body if row[k]) for k in columns]
    cells = [row[k] for row in body for k in columns if row[k]]
    if kinds[0] == "number" and sum(1 for cell in cells if _DECIMAL.match(cell)) >= 0.5 * len(cells):
        return False
    filled = [[row[k] for row in body if row[k]] for k in columns]
    distinct = len(set(cells)) >= 0.8 * len(cells) and all(len(set(column)) >= 0.8 * len(column) for column in filled)
    return max(lengths) <= 2 * min(lengths) + 2 and distinct and not _related_rows(body)


def _related_rows(rows: list[list[str]]) -> bool:
    """Whether the cells of a row are forms of one another in half the rows or more: one cell's letters and digits
    (three or more) found in another's (`d’aquesta`, `d’a-ques-ta`; `smai`, `si-smai`): a record of one word's forms."""
    related = 0
    for row in rows:
        keys = [re.sub(r"[\W_]", "", cell).lower() for cell in row if cell]
        if any(len(a) >= 3 and a in b for i, a in enumerate(keys) for j, b in enumerate(keys) if i != j):
            related += 1
    return 2 * related >= len(rows)


def _rows(stream: list[Line], caption: int, step: int, headings: dict, used: set[int], after: int | None = None) -> list[int]:
    """The lines of a table next to its caption, while they split into cells (short single cells and wrapped
    cells may sit in between); the table may start on the page before a caption set below it. Below the
    caption, the rows start after its last line (`after`)."""
    rows: list[int] = []
    start = after if step > 0 and after is not None else caption
    position = start + step
    previous = stream[start]
    page = stream[caption].page
    notes = 0  # lines of a note set between a caption and its rows (`These symbols work in text mode too.`)
    while 0 <= position < len(stream) and len(rows) < 400:
        line = stream[position]
        if position in headings or position in used:
            break
        if step > 0 and not rows and notes < _NOTE_LINES and _note_over_rows(stream, position, page):
            notes += 1
            previous = line
            position += step
            continue
        if line.page != page:
            if step > 0 or line.page != page - 1:  # a caption under its table reaches back to the page before
                break
            page = line.page
        elif abs(previous.top - line.top) > 4 * max(line.size, 6.0):
            break
        if FIGURE_CAPTION.match(line.text.strip()) or TABLE_CAPTION.match(line.text.strip()):
            break
        if len(line.cells) < 2 and len(line.text.strip()) > 24:
            starts = _column_starts(stream, position, step)
            following = stream[position + step] if 0 <= position + step < len(stream) else line
            # the first row under a caption may hold a long first cell when rows cut into cells follow it
            long_first = step > 0 and not rows and len(following.spans) >= 2 and abs(following.spans[0][1] - line.x0) <= 3
            first_column = bool(starts) and abs(line.x0 - starts[0]) <= 3 and (len(line.text.strip()) <= 48 or long_first)
            if not (_wrapped_cell(line, starts) or first_column):
                break
        rows.append(position)
        previous = line
        position += step
    while rows and len(stream[rows[-1]].cells) < 2:
        rows.pop()
    cut = [stream[row] for row in rows if len(stream[row].cells) >= 2]
    if not any(_share_columns(a, b) for a, b in itertools.pairwise(cut)):
        # no two lines cut into the same columns: a margin note beside its paragraph, a code line with a wide
        # gap in it, and the prose between them taken for wrapped cells
        return []
    return rows


_NOTE_LINES = 2  # the most lines of prose a note between a caption and its table's rows runs to


def _note_over_rows(stream: list[Line], position: int, page: int) -> bool:
    """Whether the line at `position` is a line of a note under a caption, over the table's rows: prose in one
    piece, with at most one more such line after it, then two lines on its page that cut into the same columns."""
    line = stream[position]
    if len(line.cells) >= 2 or line.mono or TABLE_CAPTION.match(line.text.strip()) or FIGURE_CAPTION.match(line.text.strip()):
        return False
    for skip in range(_NOTE_LINES):
        first = position + 1 + skip
        if first + 1 >= len(stream) or any(stream[k].page != page for k in (first, first + 1)):
            return False
        if len(stream[first].cells) >= 2:
            return len(stream[first + 1].cells) >= 2 and _share_columns(stream[first], stream[first + 1])
        if len(stream[first].cells) != 1 or stream[first].mono:
            return False
    return False


_HANGING = 6.0  # points: the least indent of an entry's further lines under its first (a list of terms, hanging)


def _framed_entries(
    stream: list[Line], caption: int, after: int, page: Page, positions: list[int], headings: dict, used: set[int]
) -> Table | None:
    """A captioned list of terms and their descriptions set between two rules of one width right under the caption
    (`article  for articles in scientific journals, ...`, each entry's further lines indented under its first): a
    table of two columns, one row per entry. The term is the first cut of its line when the line is cut, else the
    words that fit left of the description's indent (one word when the term runs past it)."""
    last = stream[after]
    near = 3.5 * max(last.size, 6.0)
    rules = [rule for rule in page.hrules if rule[1] - rule[0] >= TABLE_RULE]
    tops = [rule for rule in rules if 0 <= last.bottom - rule[2] <= near and rule[0] < last.x1 and last.x0 < rule[1]]
    for x0, x1, top in sorted(tops, key=lambda rule: -rule[2]):
        bottoms = [rule[2] for rule in rules if rule[2] < top - _ROW_HEIGHT and abs(rule[0] - x0) <= 4 and abs(rule[1] - x1) <= 4]
        if not bottoms:
            continue
        bottom = max(bottoms)
        inside = [k for k in positions if bottom < (stream[k].top + stream[k].bottom) / 2 < top]
        if len(inside) < 2 or any(k in headings or k in used or k <= after for k in inside):
            return None
        lines = [stream[k] for k in inside]
        if any(line.x0 < x0 - 4 or line.x1 > x1 + 4 for line in lines):
            return None
        left = min(line.x0 for line in lines)
        starts = [n for n, line in enumerate(lines) if line.x0 <= left + 3]
        if any(lines[n].mono for n in starts):
            return None  # a listing in a frame, not terms
        indents = [line.x0 for n, line in enumerate(lines) if n not in starts]
        if len(starts) < 2 or starts[0] != 0 or not indents or min(indents) < left + _HANGING:
            return None
        indent = min(indents)
        rows = []
        for n, start in enumerate(starts):
            end = starts[n + 1] if n + 1 < len(starts) else len(lines)
            term, description = _term_and_description(lines[start], indent)
            description += LINE_END_HYPHEN if lines[start].text.rstrip().endswith(LINE_END_HYPHEN) else ""
            for line in lines[start + 1 : end]:
                broken = LINE_END_HYPHEN if line.text.rstrip().endswith(LINE_END_HYPHEN) else ""  # kept for the writer's dictionary
                description = _joined_cell(description, clean_inline(line.text) + broken)
            rows.append([term, description])
        return Table(caption, inside, rows, False, x0, x1, starts=(left, indent))
    return None


def _term_and_description(line: Line, indent: float) -> tuple[str, str]:
    """An entry's first line cut into its term and the start of its description: at its first cut, else after the
    words that end left of the description's indent (their width estimated from the line's mean advance), at least
    one word."""
    if len(line.spans) >= 2:
        return clean_inline(line.spans[0][0]), clean_inline(" ".join(span[0] for span in line.spans[1:]))
    text = clean_inline(line.text)
    words = text.split(" ")
    advance = (line.x1 - line.x0) / max(len(text), 1)
    count = 1
    while count < len(words) and line.x0 + advance * len(" ".join(words[: count + 1])) <= indent:
        count += 1
    return " ".join(words[:count]), " ".join(words[count:])


_ONE_ROW_CELLS = 4  # the fewest cells a lone line next to a caption is cut into to be its table's one row


def _one_row(stream: list[Line], caption: int, after: int, step: int, headings: dict, used: set[int]) -> list[int]:
    """The one line that is a captioned table's only row (a short list of symbols and their commands): right next
    to the caption on the side where the document puts its tables, on its page, cut into four cells or more, the
    line beyond it, if any on the page, no row of it (not cut into cells)."""
    position = (after if step > 0 else caption) + step
    if not 0 <= position < len(stream) or position in headings or position in used:
        return []
    line, near = stream[position], stream[after if step > 0 else caption]
    if line.page != near.page or abs(near.top - line.top) > 4 * max(line.size, 6.0) or len(line.cells) < _ONE_ROW_CELLS:
        return []
    beyond = position + step
    if 0 <= beyond < len(stream) and stream[beyond].page == line.page and len(stream[beyond].cells) >= 2:
        return []
    return [position]


def _share_columns(line: Line, other: Line) -> bool:
    """Whether two lines cut into cells are cut into the same columns: two cells of the one with fewer start,
    end or sit centred where cells of the other do (left-aligned, right-aligned or centred columns)."""
    fewer, more = sorted((line.spans, other.spans), key=len)
    matched = 0
    for _, x0, x1 in fewer:
        if any(abs(x0 - a) <= 3 or abs(x1 - b) <= 3 or abs((x0 + x1) - (a + b)) <= 6 for _, a, b in more):
            matched += 1
    return matched >= 2


def _line_starts(lines: list[Line]) -> tuple[float, ...]:
    """Where the columns of text aligned in columns start: the cuts of its line cut into the most cells, words that a
    justified cell spreads apart after its last column left out (`_justified_end`)."""
    cuts = [[span[1] for span in line.spans[: _justified_end(line, lines)]] for line in lines]
    most = max(range(len(lines)), key=lambda k: len(cuts[k]))
    return tuple(cuts[most]) or (lines[most].x0,)


def _justified_end(line: Line, lines: list[Line]) -> int:
    """How many of a line's pieces start columns: a word alone at its end that no other line is cut at is one a
    justified last cell spread apart (`\\Xsetparstuff      or`), when two cuts shared with other lines remain."""
    shared = [any(abs(span[1] - other[1]) <= 3 for o in lines if o is not line for other in o.spans) for span in line.spans]
    end = len(line.spans) - 1
    if end >= 2 and not shared[end] and _WORD.fullmatch(line.spans[end][0].strip()) and sum(shared[:end]) >= 2:
        return end
    return len(line.spans)


def _table_cells(lines: list[Line]) -> list[list[str]]:
    """Rows of cells, each cell in the column whose start is nearest; a line in one piece, or one whose
    first cell is empty, continues the cells of the row above (multi-line cells stay one cell)."""
    starts = list(_line_starts(lines))
    rows: list[list[str]] = []
    heights: list[float] = []  # the top of each row's first line
    for line in lines:
        spans = line.spans or [(clean_inline(line.text), line.x0, line.x1)]
        row = [""] * len(starts)
        for text, x0, _ in spans:
            column = min(range(len(starts)), key=lambda k: abs(starts[k] - x0))
            row[column] = f"{row[column]} {clean_inline(text)}".strip()
        level = [k for k in range(len(rows) - 1) if abs(heights[k] - line.top) <= 2]
        if level and all(not rows[level[0]][k] for k, cell in enumerate(row) if cell):
            rows[level[0]] = [above or cell for above, cell in zip(rows[level[0]], row, strict=True)]
            continue  # cells given after the rows below theirs, level with their row (`_cells_of_a_row`)
        if rows and (len(spans) < 2 or not row[0]):
            rows[-1] = [f"{above} {below}".strip() for above, below in zip(rows[-1], row, strict=True)]
            continue
        rows.append(row)
        heights.append(line.top)
    return rows


def _cells_of_a_row(taken: list[Line], line: Line, starts: list[float]) -> bool:
    """Whether a line holds cells of a row already taken that the page gives out of reading order (a column of
    names written after the columns beside it): level with that row, clear of its pieces, each piece starting where
    a column after the first starts (a row's first cell, its name or number, is no cell given late)."""
    level = [row for row in taken[:-1] if abs(row.top - line.top) <= 2]
    if not level:
        return False
    pieces = line.spans or [(line.text, line.x0, line.x1)]
    row = level[0]
    clear = all(x1 <= piece[1] or piece[2] <= x0 for _, x0, x1 in row.spans or [(row.text, row.x0, row.x1)] for piece in pieces)
    return clear and all(any(abs(piece[1] - start) <= 3 for start in starts[1:]) for piece in pieces)


def _headed(rows: list[list[str]], lines: list[Line]) -> bool:
    """Whether text aligned in columns, with neither rules nor a caption, reads as a table rather than a
    list of terms and their descriptions (`help  view the manual;`): two columns whose second holds prose (a
    margin note beside an entry is no third column), under no header row (bold, or labels of a few words that neither
    start in lower case nor end a sentence); nor is one entry whose lines go on in its columns."""
    if len(rows) < 2:
        return False  # every line under the first goes on with its cells: one entry in columns, not rows of a table
    width = max(len(row) for row in rows)
    # a column filled in half the rows or fewer (a margin note beside one entry) is no column of the list
    filled = [k for k in range(width) if 2 * sum(1 for row in rows if k < len(row) and row[k]) > len(rows)]
    if len(filled) != 2 or sum(1 for row in rows if len(row[filled[-1]].split()) >= 3) < 0.6 * len(rows):
        return True
    if lines and lines[0].bold_prefix >= len(lines[0].text.rstrip()) - 1:
        return True
    first = [rows[0][k] for k in filled if rows[0][k]]
    # a header's cells are labels: a few words each (a reference under its key `[Abr05]` is an entry of a list)
    return len(first) == 2 and not any(cell[:1].islower() or cell.endswith((".", ";", ",")) or len(cell.split()) > 8 for cell in first)


def _has_header(rows: list[list[str]], lines: list[Line]) -> bool:
    """Whether the first row is a header: set in bold, or words over columns whose cells below hold numbers."""
    if len(rows) < 2:
        return False
    if lines and lines[0].bold_prefix >= len(lines[0].text.rstrip()) - 1:
        return True
    numeric = re.compile(r"^[-+−]?[\d.,/:x×%]+$")
    first = [cell for cell in rows[0] if cell]
    if any(numeric.match(cell) for cell in first):
        return False
    below = [cell for row in rows[1:] for cell in row if cell]
    return bool(below) and (any(numeric.match(cell) for cell in below) or len(first) == len(rows[0]))


def pipe_table(rows: list[list[str]], header: bool = True) -> list[str]:
    """A pipe table; without a header row of its own the table gets an empty one, so no data row is taken for a header."""
    width = max(len(cells) for cells in rows)
    if not header:
        rows = [[""] * width, *rows]
    lines = []
    for number, cells in enumerate(rows):
        padded = [cell.replace("|", "\\|") for cell in cells] + [""] * (width - len(cells))
        lines.append("| " + " | ".join(padded) + " |")
        if number == 0:
            lines.append("|" + "---|" * width)
    return lines
