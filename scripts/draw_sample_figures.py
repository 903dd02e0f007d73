#!/usr/bin/env python3
"""Draw the figures of the bundled sample workspace (fictional demo norms).

Every figure is a simple, original engineering diagram drawn with Pillow:
white background, about 800 x 500 pixels, a small palette so that each PNG
stays well below 60 KB.

    python scripts/draw_sample_figures.py            # writes into sample_workspace/norms/...
    python scripts/draw_sample_figures.py --root DIR # another workspace root

The figures illustrate the fictional values of the sample norms; they are not
taken from any real standard.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

W, H = 800, 500
BLACK = (0, 0, 0)
GREY = (150, 150, 150)
LIGHT = (225, 225, 225)
BLUE = (30, 80, 190)
RED = (200, 40, 40)
GREEN = (30, 140, 60)
ORANGE = (220, 130, 20)
SNOW = (205, 225, 245)

_FONT_CANDIDATES = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:/Windows/Fonts/arial.ttf",
]
_UNICODE_FONT = True


def font(size: int = 15) -> ImageFont.ImageFont:
    """A font that can print μ, γ, ², ß; Pillow's default font otherwise."""
    global _UNICODE_FONT
    for candidate in _FONT_CANDIDATES:
        if Path(candidate).exists():
            return ImageFont.truetype(candidate, size)
    _UNICODE_FONT = False
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


_ASCII = {"μ": "mu", "α": "alpha", "γ": "gamma", "²": "2", "³": "3", "ß": "ss", "°": " deg",
          "–": "-", "≤": "<=", "≥": ">=", "é": "e", "è": "e", "à": "a", "ä": "ae", "ö": "oe",
          "ü": "ue", "σ": "sigma", "₀": "0", "·": "*"}


def label(text: str) -> str:
    if _UNICODE_FONT:
        return text
    return "".join(_ASCII.get(ch, ch) for ch in text)


class Canvas:
    def __init__(self, title: str) -> None:
        self.img = Image.new("RGB", (W, H), "white")
        self.d = ImageDraw.Draw(self.img)
        self.f = font(15)
        self.small = font(13)
        self.big = font(18)
        self.d.text((W // 2, 14), label(title), font=self.big, fill=BLACK, anchor="ma")

    def text(self, xy, s, fill=BLACK, anchor="la", small=False):
        self.d.text(xy, label(s), font=self.small if small else self.f, fill=fill, anchor=anchor)

    def line(self, pts, fill=BLACK, width=2):
        self.d.line(pts, fill=fill, width=width)

    def arrow(self, x0, y0, x1, y1, fill=BLACK, width=2, head=9):
        self.d.line([(x0, y0), (x1, y1)], fill=fill, width=width)
        ang = math.atan2(y1 - y0, x1 - x0)
        for s in (+1, -1):
            a = ang + math.pi - s * 0.4
            self.d.line([(x1, y1), (x1 + head * math.cos(a), y1 + head * math.sin(a))],
                        fill=fill, width=width)

    def dim(self, x0, y0, x1, y1, text, offset=0):
        """A dimension line with arrows at both ends and a centred label."""
        self.arrow((x0 + x1) / 2, (y0 + y1) / 2, x0, y0, width=1, head=7)
        self.arrow((x0 + x1) / 2, (y0 + y1) / 2, x1, y1, width=1, head=7)
        self.text(((x0 + x1) / 2, (y0 + y1) / 2 - 8 + offset), text, anchor="md", small=True)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        pal = self.img.convert("P", palette=Image.ADAPTIVE, colors=24)
        pal.save(path, optimize=True)


class Axes:
    """A simple x/y plot area with ticks and labels."""

    def __init__(self, c: Canvas, box, xr, yr, xlabel, ylabel, xticks, yticks, grid=True):
        self.c, (self.x0, self.y0, self.x1, self.y1) = c, box
        self.xr, self.yr = xr, yr
        d = c.d
        if grid:
            for t in xticks:
                d.line([self.px(t, yr[0]), self.px(t, yr[1])], fill=LIGHT, width=1)
            for t in yticks:
                d.line([self.px(xr[0], t), self.px(xr[1], t)], fill=LIGHT, width=1)
        d.line([(self.x0, self.y1), (self.x1, self.y1)], fill=BLACK, width=2)
        d.line([(self.x0, self.y0), (self.x0, self.y1)], fill=BLACK, width=2)
        for t in xticks:
            x, y = self.px(t, yr[0])
            d.line([(x, y), (x, y + 5)], fill=BLACK, width=1)
            c.text((x, y + 8), _fmt(t), anchor="ma", small=True)
        for t in yticks:
            x, y = self.px(xr[0], t)
            d.line([(x - 5, y), (x, y)], fill=BLACK, width=1)
            c.text((x - 8, y), _fmt(t), anchor="rm", small=True)
        c.text(((self.x0 + self.x1) / 2, self.y1 + 30), xlabel, anchor="ma")
        c.text((self.x0 - 10, self.y0 - 22), ylabel, anchor="la")

    def px(self, x, y):
        fx = (x - self.xr[0]) / (self.xr[1] - self.xr[0])
        fy = (y - self.yr[0]) / (self.yr[1] - self.yr[0])
        return (self.x0 + fx * (self.x1 - self.x0), self.y1 - fy * (self.y1 - self.y0))

    def plot(self, xs, ys, fill=BLUE, width=3):
        self.c.d.line([self.px(x, y) for x, y in zip(xs, ys)], fill=fill, width=width)


def _fmt(v) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}".replace(".", ",")


def _fmt_en(v) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def frange(a, b, n=120):
    return [a + (b - a) * i / n for i in range(n + 1)]


# --------------------------------------------------------------------------- SIA 261


def sia261_fig1_zones(path: Path) -> None:
    c = Canvas("Figure 1 – Zones de charge de neige (esquisse, pays fictif)")
    # a fictional country outline, divided into four bands
    outline = [(90, 300), (140, 190), (250, 140), (380, 120), (520, 110), (650, 150),
               (720, 230), (700, 330), (610, 410), (470, 440), (300, 430), (170, 400)]
    fills = [(235, 245, 255), (205, 225, 250), (170, 200, 240), (130, 170, 225)]
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).polygon(outline, fill=255)
    bands = [(0, 230), (230, 390), (390, 560), (560, W)]
    for (a, b), col in zip(bands, fills):
        layer = Image.new("RGB", (W, H), col)
        bm = Image.new("L", (W, H), 0)
        ImageDraw.Draw(bm).rectangle([a, 0, b, H], fill=255)
        from PIL import ImageChops
        c.img.paste(layer, (0, 0), ImageChops.multiply(mask, bm))
    c.d.polygon(outline, outline=BLACK, width=3)
    for x in (230, 390, 560):
        c.line([(x, 100), (x, 450)], fill=GREY, width=1)
    for (a, b), name in zip(bands, ["Zone 1", "Zone 2", "Zone 3", "Zone 4"]):
        c.text(((a + b) / 2 if b < W else (a + 720) / 2, 280), name, anchor="mm")
    c.text((400, 470), "Plaine  →  Préalpes  →  Alpes  (zones de charge croissante)", anchor="mm",
           small=True)
    c.text((40, 60), "Z_s = 1,0 / 1,25 / 1,5 / 2,0", small=True)
    c.save(path)


def sia261_fig2_sk(path: Path) -> None:
    c = Canvas("Figure 2 – Valeur caractéristique s_k en fonction de l'altitude h₀")
    ax = Axes(c, (110, 70, 740, 420), (0, 2000), (0, 10), "altitude de référence h₀ [m]",
              "s_k [kN/m²]", [0, 400, 800, 1200, 1600, 2000], [0, 2, 4, 6, 8, 10])
    cols = [GREEN, BLUE, ORANGE, RED]
    for zs, col, name in zip([1.0, 1.25, 1.5, 2.0], cols, ["Zone 1", "Zone 2", "Zone 3", "Zone 4"]):
        xs = frange(0, 2000)
        ys = [min(10, max(0.8, zs * 0.35 * (1 + (h / 400) ** 2))) for h in xs]
        ax.plot(xs, ys, fill=col)
    # legend box, upper left
    c.d.rectangle([130, 80, 300, 190], fill="white", outline=GREY)
    for i, (zs, col, name) in enumerate(zip([1.0, 1.25, 1.5, 2.0], cols,
                                            ["Zone 1", "Zone 2", "Zone 3", "Zone 4"])):
        y = 95 + 25 * i
        c.line([(142, y), (182, y)], fill=col, width=3)
        c.text((192, y), f"{name}  Z_s = {_fmt(zs)}", anchor="lm", small=True)
    x, y = ax.px(900, 0.8)
    c.text((x, y - 14), "minimum 0,8 kN/m²", small=True)
    c.save(path)


def mu_duopitch(alpha, flat=25.0, zero=60.0):
    if alpha <= flat:
        return 0.8
    if alpha >= zero:
        return 0.0
    return 0.8 * (zero - alpha) / (zero - flat)


def sia261_fig3_mu(path: Path, flat=25.0, zero=60.0, title="Figure 3 – Coefficient de forme μ pour toits à deux versants",
                   xlab="inclinaison du versant α [°]", case2="cas non symétrique 0,5 μ"):
    c = Canvas(title)
    ax = Axes(c, (110, 80, 560, 420), (0, 90), (0, 1.0), xlab, "μ [-]",
              [0, 15, 30, 45, 60, 75, 90], [0, 0.2, 0.4, 0.6, 0.8, 1.0])
    xs = frange(0, 90)
    ax.plot(xs, [mu_duopitch(a, flat, zero) for a in xs], fill=BLUE)
    ax.plot(xs, [0.5 * mu_duopitch(a, flat, zero) for a in xs], fill=ORANGE, width=2)
    c.text(ax.px(4, 0.86), "μ (cas symétrique)", fill=BLUE, small=True)
    c.text(ax.px(4, 0.46), case2, fill=ORANGE, small=True)
    # a small roof sketch on the right
    bx, by = 600, 330
    c.d.polygon([(bx, by), (bx + 80, by - 60), (bx + 160, by)], outline=BLACK, width=2)
    c.d.rectangle([bx + 10, by, bx + 150, by + 70], outline=BLACK, width=2)
    for i in range(8):
        x = bx + 5 + i * 10
        c.arrow(x, by - 110, x, by - 8 - i * 7.5, fill=BLUE, width=1, head=5)
        x2 = bx + 155 - i * 10
        c.arrow(x2, by - 110, x2, by - 8 - i * 7.5, fill=BLUE, width=1, head=5)
    c.d.arc([bx - 40, by - 40, bx + 40, by + 40], 320, 360, fill=RED, width=2)
    c.text((bx + 44, by - 16), "α", fill=RED)
    c.text((bx + 80, by + 90), "μ · s_k", anchor="ma", small=True)
    c.save(path)


def sia261_fig4_drift(path: Path, title="Figure 4 – Accumulation de neige contre un obstacle",
                      labels=("l_s = 2,5 h (4 m ≤ l_s ≤ 12 m)", "μ_w", "μ = 0,8", "obstacle", "toit")):
    c = Canvas(title)
    ground = 380
    c.d.rectangle([80, ground, 720, ground + 20], fill=LIGHT, outline=BLACK)
    c.text((100, ground + 4), labels[4], small=True)
    # obstacle (higher roof)
    c.d.rectangle([520, 170, 720, ground], fill=(240, 240, 240), outline=BLACK, width=2)
    c.text((620, 260), labels[3], anchor="mm")
    # uniform snow layer and drift
    c.d.rectangle([80, ground - 35, 520, ground], fill=SNOW, outline=BLUE)
    c.d.polygon([(300, ground - 35), (520, ground - 150), (520, ground - 35)], fill=SNOW,
                outline=BLUE)
    c.line([(300, ground - 35), (520, ground - 150)], fill=BLUE, width=3)
    c.dim(300, ground - 180, 520, ground - 180, labels[0])
    c.dim(545, ground - 150, 545, ground, "")
    c.text((552, ground - 80), labels[1], small=True, fill=BLUE)
    c.text((150, ground - 60), labels[2], small=True, fill=BLUE)
    c.dim(750, 170, 750, ground, "")
    c.text((742, 260), "h", anchor="rm")
    c.save(path)


def sia261_fig6_cpe(path: Path) -> None:
    c = Canvas("Figure 6 – Zones de pression sur un toit plat (vue en plan)")
    x0, y0, x1, y1 = 180, 90, 620, 400
    zones = [("F", x0, y0, x0 + 60, y0 + 70, (250, 200, 200)),
             ("F", x0, y1 - 70, x0 + 60, y1, (250, 200, 200)),
             ("G", x0, y0 + 70, x0 + 60, y1 - 70, (250, 225, 200)),
             ("H", x0 + 60, y0, x0 + 240, y1, (255, 245, 205)),
             ("I", x0 + 240, y0, x1, y1, (225, 240, 225))]
    for name, a, b, cc, dd, col in zones:
        c.d.rectangle([a, b, cc, dd], fill=col, outline=BLACK, width=1)
        c.text(((a + cc) / 2, (b + dd) / 2), name, anchor="mm")
    c.d.rectangle([x0, y0, x1, y1], outline=BLACK, width=3)
    for y in range(120, 390, 45):
        c.arrow(60, y, 165, y, fill=BLUE, width=2)
    c.text((60, 100), "vent", fill=BLUE)
    c.dim(x0, y1 + 30, x0 + 60, y1 + 30, "e/10", offset=36)
    c.dim(x0 + 60, y1 + 30, x0 + 240, y1 + 30, "e/2", offset=36)
    c.text((650, 120), "c_pe,10 :", small=True)
    for i, (z, v) in enumerate([("F", "-2,0"), ("G", "-1,3"), ("H", "-0,8"), ("I", "±0,3")]):
        c.text((650, 145 + 22 * i), f"{z} : {v}", small=True)
    c.save(path)


def sia261_fig5_ch(path: Path) -> None:
    c = Canvas("Figure 5 – Coefficient de profil c_h selon la catégorie de terrain")
    ax = Axes(c, (110, 70, 740, 420), (0, 3.0), (0, 100), "c_h [-]", "hauteur z [m]",
              [0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0], [0, 20, 40, 60, 80, 100])
    params = [("II", 0.15, 320, GREEN), ("IIa", 0.20, 400, BLUE), ("III", 0.26, 470, ORANGE),
              ("IV", 0.32, 550, RED)]
    for name, a, zg, col in params:
        zs = frange(1, 100)
        chs = [1.5 * ((max(z, 4.0) / zg) ** a + 0.36) ** 2 for z in zs]
        ax.plot(chs, zs, fill=col)
        x, y = ax.px(chs[-1], 100)
        c.text((x + 4, y + 12), name, fill=col, small=True)
    c.save(path)


# --------------------------------------------------------------------------- SIA 260


def sia260_fig1_distributions(path: Path) -> None:
    c = Canvas("Figure 1 – Effet d'action E et résistance R : valeurs caractéristiques et de calcul")
    ax = Axes(c, (80, 80, 740, 410), (0, 10), (0, 0.45), "E, R", "densité", [0, 2, 4, 6, 8, 10],
              [], grid=False)

    def gauss(x, m, s):
        return math.exp(-0.5 * ((x - m) / s) ** 2) / (s * math.sqrt(2 * math.pi))

    xs = frange(0, 10, 200)
    ax.plot(xs, [gauss(x, 3.5, 1.0) for x in xs], fill=RED)
    ax.plot(xs, [gauss(x, 7.0, 1.1) for x in xs], fill=BLUE)
    for v, name, col in [(5.1, "E_k", RED), (5.9, "E_d = R_d", BLACK), (5.2, "", BLACK),
                         (7.0 - 1.645 * 1.1, "", BLUE)]:
        if not name:
            continue
        x, y = ax.px(v, 0)
        c.line([(x, y), (x, ax.px(0, 0.42)[1])], fill=col, width=1)
        c.text((x, ax.px(0, 0.43)[1]), name, fill=col, anchor="md", small=True)
    x, y = ax.px(5.2, 0)
    c.text(ax.px(2.0, 0.40), "effet d'action E", fill=RED, small=True)
    c.text(ax.px(7.6, 0.37), "résistance R", fill=BLUE, small=True)
    c.text(ax.px(7.9, 0.20), "R_k", fill=BLUE, small=True)
    c.text((410, 455), "E_d = γ_F · E_k     R_d = R_k / γ_M", anchor="ma")
    c.save(path)


def sia260_fig2_beam(path: Path) -> None:
    c = Canvas("Figure 2 – Poutre simple : charges et moment fléchissant")
    y = 220
    x0, x1 = 120, 680
    c.line([(x0, y), (x1, y)], width=6)
    for x in (x0, x1):
        c.d.polygon([(x, y + 3), (x - 18, y + 33), (x + 18, y + 33)], outline=BLACK, width=2)
    c.line([(x1 - 24, y + 40), (x1 + 24, y + 40)], width=2)
    c.d.rectangle([x0, y - 70, x1, y - 45], fill=(235, 235, 250), outline=BLUE)
    c.text((x0 + 4, y - 92), "g_d + q_d", fill=BLUE)
    for x in range(x0, x1 + 1, 40):
        c.arrow(x, y - 45, x, y - 5, fill=BLUE, width=1, head=6)
    c.dim(x0, y + 70, x1, y + 70, "l", offset=36)
    # moment parabola below
    base = 330
    pts = [(x0 + (x1 - x0) * t, base + 110 * 4 * t * (1 - t)) for t in [i / 60 for i in range(61)]]
    c.d.polygon(pts, fill=(250, 230, 230), outline=RED)
    c.line([(x0, base), (x1, base)], fill=BLACK, width=1)
    c.text((400, base + 118), "M_d = (g_d + q_d) · l² / 8", fill=RED, anchor="ma", small=True)
    c.save(path)


# --------------------------------------------------------------------------- VSS 640 100


def vss_abb1_querschnitt(path: Path) -> None:
    c = Canvas("Abbildung 1 – Normalquerschnitt einer zweistreifigen Straße")
    y = 300
    # Fahrbahn with 2.5 % Dachprofil
    xl, xc, xr = 200, 400, 600
    c.d.polygon([(xl, y), (xc, y - 8), (xr, y), (xr, y + 25), (xc, y + 17), (xl, y + 25)],
                fill=(90, 90, 90), outline=BLACK)
    # Bankette / Gehweg
    c.d.rectangle([120, y - 12, 200, y + 25], fill=(200, 200, 200), outline=BLACK)
    c.d.rectangle([600, y - 12, 680, y + 25], fill=(200, 200, 200), outline=BLACK)
    c.d.polygon([(40, y + 60), (120, y - 12), (120, y + 25)], fill=(170, 210, 150), outline=BLACK)
    c.d.polygon([(760, y + 60), (680, y - 12), (680, y + 25)], fill=(170, 210, 150), outline=BLACK)
    c.line([(xc, y - 40), (xc, y - 10)], fill=ORANGE, width=2)
    c.text((xc, y - 46), "Achse", anchor="md", small=True)
    c.dim(xl, y - 80, xc, y - 80, "Fahrstreifen 3,25 m")
    c.dim(xc, y - 80, xr, y - 80, "Fahrstreifen 3,25 m")
    c.dim(xl, y - 130, xr, y - 130, "Fahrbahnbreite b_F = 6,50 m")
    c.dim(120, y + 60, 200, y + 60, "Gehweg", offset=34)
    c.dim(600, y + 60, 680, y + 60, "Bankett", offset=34)
    c.text((300, y + 40), "q = 2,5 %", fill=BLACK, small=True, anchor="ma")
    c.text((500, y + 40), "q = 2,5 %", fill=BLACK, small=True, anchor="ma")
    c.text((400, 440), "Lichtraumprofil und Böschungen schematisch, nicht massstäblich", anchor="ma",
           small=True)
    c.save(path)


def vss_abb2_gefaelle(path: Path) -> None:
    c = Canvas("Abbildung 2 – Resultierendes Gefälle aus Längs- und Querneigung")
    ox, oy = 150, 380
    sx, sy = 450, 0
    c.arrow(ox, oy, ox + sx, oy, fill=BLUE, width=3)
    c.arrow(ox, oy, ox, oy - 250, fill=GREEN, width=3)
    c.arrow(ox, oy, ox + sx, oy - 250, fill=RED, width=3)
    c.line([(ox + sx, oy), (ox + sx, oy - 250)], fill=GREY, width=1)
    c.line([(ox, oy - 250), (ox + sx, oy - 250)], fill=GREY, width=1)
    c.text((ox + sx / 2, oy + 12), "Längsgefälle s", fill=BLUE, anchor="ma")
    c.text((ox - 10, oy - 125), "Querneigung q", fill=GREEN, anchor="rm")
    c.text((ox + sx / 2 + 40, oy - 95), "Schrägneigung p = √(s² + q²)", fill=RED, anchor="la")
    c.text((620, 120), "Wasserweg", small=True)
    c.text((620, 140), "auf der Fahrbahn", small=True)
    c.text((620, 180), "p ≥ 0,5 % überall", small=True)
    c.save(path)


# --------------------------------------------------------------------------- EN 1991-1-3


def en_fig1_mu(path: Path) -> None:
    c = Canvas("Figure 1 – Snow load shape coefficients μ1 and μ2")
    ax = Axes(c, (110, 80, 700, 420), (0, 60), (0, 2.0), "roof angle α [°]", "μ [-]",
              [0, 15, 30, 45, 60], [0, 0.4, 0.8, 1.2, 1.6, 2.0])

    def mu1(a):
        return 0.8 if a <= 20 else max(0.0, 0.8 * (55 - a) / 35)

    def mu2(a):
        return 0.8 + 0.6 * a / 25 if a <= 25 else 1.4

    xs = frange(0, 60)
    ax.plot(xs, [mu1(a) for a in xs], fill=BLUE)
    ax.plot(xs, [mu2(a) for a in xs], fill=RED)
    c.text(ax.px(40, 0.62), "μ1", fill=BLUE)
    c.text(ax.px(40, 1.50), "μ2", fill=RED)
    for t in [0.4, 0.8, 1.2, 1.6]:
        x, y = ax.px(0, t)
        c.d.rectangle([x - 60, y - 8, x - 9, y + 8], fill="white")
        c.text((x - 8, y), _fmt_en(t), anchor="rm", small=True)
    c.save(path)


def en_fig2_drift(path: Path) -> None:
    sia261_fig4_drift(path, title="Figure 2 – Drift at a projection or obstruction",
                      labels=("l_s = 2.2 h (4 m ≤ l_s ≤ 14 m)", "μ2", "μ1 = 0.8", "projection",
                              "lower roof"))


# --------------------------------------------------------------------------- main


def draw_all(root: Path) -> list[Path]:
    norms = root / "norms"
    jobs = [
        (sia261_fig1_zones, norms / "sia-261/2020/figures/fig-1.png"),
        (sia261_fig2_sk, norms / "sia-261/2020/figures/fig-2.png"),
        (sia261_fig3_mu, norms / "sia-261/2020/figures/fig-3.png"),
        (sia261_fig4_drift, norms / "sia-261/2020/figures/fig-4.png"),
        (sia261_fig5_ch, norms / "sia-261/2020/figures/fig-5.png"),
        (sia261_fig6_cpe, norms / "sia-261/2020/figures/fig-6.png"),
        (lambda p: sia261_fig3_mu(p, flat=30.0, zero=65.0,
                                  title="Figure 1 – Coefficient de forme μ (toits à deux versants)"),
         norms / "sia-261/2014/figures/fig-1.png"),
        (sia260_fig1_distributions, norms / "sia-260/2013/figures/fig-1.png"),
        (sia260_fig2_beam, norms / "sia-260/2013/figures/fig-2.png"),
        (vss_abb1_querschnitt, norms / "vss-640-100/2019/figures/abb-1.png"),
        (vss_abb2_gefaelle, norms / "vss-640-100/2019/figures/abb-2.png"),
        (en_fig1_mu, norms / "en-1991-1-3/2021/figures/fig-1.png"),
        (en_fig2_drift, norms / "en-1991-1-3/2021/figures/fig-2.png"),
    ]
    out = []
    for fn, path in jobs:
        fn(path)
        out.append(path)
    return out


def main() -> None:
    default_root = Path(__file__).resolve().parent.parent / "sample_workspace"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=default_root, help="workspace root")
    args = ap.parse_args()
    for path in draw_all(args.root):
        print(f"{path.stat().st_size:7d} B  {path}")


if __name__ == "__main__":
    main()
