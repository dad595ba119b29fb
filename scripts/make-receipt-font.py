"""Makes src/server/modules/cards/receipt-font.ttf, the font the PDF receipt embeds.

Noto Sans CJK SC (Debian's fonts-noto-cjk) cut down to what a receipt prints: Latin with its
accents, punctuation and currency signs, kana, and the 6,763 Chinese characters of GB 2312 (the
ones names and addresses use), with TrueType outlines, which pdf-lib subsets reliably per receipt.
Run with Debian's python3 and python3-fonttools:
    /usr/bin/python3 scripts/make-receipt-font.py
"""

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, newTable

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SIMPLIFIED_CHINESE = 2  # the collection's Noto Sans CJK SC
TARGET = "src/server/modules/cards/receipt-font.ttf"

ranges = [
    (0x20, 0x7E),  # ASCII
    (0xA0, 0x17F),  # Latin-1 and Latin Extended-A
    (0x2010, 0x2044),  # dashes, quotes, bullet, ellipsis
    (0x20A0, 0x20BF),  # currency signs
    (0x2116, 0x2122),  # numero, trade mark
    (0x3000, 0x303F),  # CJK punctuation
    (0x3040, 0x30FF),  # kana
    (0xFF01, 0xFF5E),  # full-width forms
]
codepoints = {cp for start, end in ranges for cp in range(start, end + 1)}
for high in range(0xB0, 0xF8):  # GB 2312 rows 16-87: the Chinese characters
    for low in range(0xA1, 0xFF):
        try:
            codepoints.add(ord(bytes([high, low]).decode("gb2312")))
        except UnicodeDecodeError:
            pass

font = TTCollection(SOURCE).fonts[SIMPLIFIED_CHINESE]
options = subset.Options()
options.layout_features = []  # no OpenType features: a receipt needs plain glyphs
options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
options.notdef_outline = True
options.hinting = False
options.desubroutinize = True
subsetter = subset.Subsetter(options)
subsetter.populate(unicodes=codepoints)
subsetter.subset(font)

# CFF to TrueType outlines (quadratic curves within 2 units (of 1000) of the cubic ones).
glyph_set = font.getGlyphSet()
glyphs = {}
for name in font.getGlyphOrder():
    pen = TTGlyphPen(glyph_set)
    glyph_set[name].draw(Cu2QuPen(pen, max_err=2.0, reverse_direction=True))
    glyphs[name] = pen.glyph()
del font["CFF "]
if "VORG" in font:
    del font["VORG"]
font["glyf"] = newTable("glyf")
font["glyf"].glyphOrder = font.getGlyphOrder()
font["glyf"].glyphs = glyphs
font["loca"] = newTable("loca")
font["maxp"].tableVersion = 0x00010000
for attr in (
    "maxZones",
    "maxTwilightPoints",
    "maxStorage",
    "maxFunctionDefs",
    "maxInstructionDefs",
    "maxStackElements",
    "maxSizeOfInstructions",
    "maxComponentElements",
):
    setattr(font["maxp"], attr, 0)
font["maxp"].maxZones = 1
font["head"].indexToLocFormat = 0
font["head"].glyphDataFormat = 0
font["post"].formatType = 2.0
font["post"].extraNames = []
font["post"].mapping = {}
font.sfntVersion = "\x00\x01\x00\x00"
font.save(TARGET)
print(f"{TARGET}: {len(codepoints)} code points, {len(font.getGlyphOrder())} glyphs")
