/* Twig 3.5's core filters (CoreExtension and EscaperExtension) with PHP 8's
 * semantics: string, array and number filters, PHP's sprintf for `format`,
 * mbstring's full Unicode case mapping, and the filter table the checker
 * resolves names against. */
#include <math.h>
#include <stdlib.h>

#include <utf8proc.h>

#include "tpl_lib.h"

#define ARG(i) ((i) < argc ? argv[(i)] : tpl_null())
#define HAS(i) ((i) < argc && argv[(i)].type != TPL_NULL)

static const char *tpl_gettype(tpl_value v) {
  switch (v.type) {
  case TPL_NULL:
    return "NULL";
  case TPL_BOOL:
    return "boolean";
  case TPL_INT:
    return "integer";
  case TPL_FLOAT:
    return "double";
  case TPL_STR:
    return "string";
  case TPL_LIST:
  case TPL_MAP:
    return "array";
  default:
    return "object";
  }
}

/* A string argument as PHP coerces it (null → ""). A safe string loses its
 * mark: PHP functions see a Markup's plain text, so a filter that hands its
 * input back unchanged (striptags without tags, nl2br without newlines)
 * returns a plain string that autoescaping escapes again, as in Twig. */
static tpl_value tpl_str_arg(tpl_rt *rt, tpl_value v) {
  if (v.type == TPL_STR) {
    v.safe = 0;
    return v;
  }
  return tpl_to_str(rt, v);
}

static tpl_value tpl_empty_list(tpl_rt *rt) {
  return tpl_list_value(tpl_list_new(rt->arena, 0));
}

/* ---- Unicode case mapping as mbstring does it ----------------------- */

/* Generated from PHP 8.2's mbstring: characters whose full case mapping is
 * several characters (SpecialCasing), and the Case_Ignorable and Cased
 * properties that decide word starts in title case. */
static const uint32_t tpl_case_ignorable[][2] = {
    {0x27, 0x27},       {0x2E, 0x2E},       {0x3A, 0x3A},
    {0x5E, 0x5E},       {0x60, 0x60},       {0xA8, 0xA8},
    {0xAD, 0xAD},       {0xAF, 0xAF},       {0xB4, 0xB4},
    {0xB7, 0xB8},       {0x2B0, 0x36F},     {0x374, 0x375},
    {0x37A, 0x37A},     {0x384, 0x385},     {0x387, 0x387},
    {0x483, 0x489},     {0x559, 0x559},     {0x55F, 0x55F},
    {0x591, 0x5BD},     {0x5BF, 0x5BF},     {0x5C1, 0x5C2},
    {0x5C4, 0x5C5},     {0x5C7, 0x5C7},     {0x5F4, 0x5F4},
    {0x600, 0x605},     {0x610, 0x61A},     {0x61C, 0x61C},
    {0x640, 0x640},     {0x64B, 0x65F},     {0x670, 0x670},
    {0x6D6, 0x6DD},     {0x6DF, 0x6E8},     {0x6EA, 0x6ED},
    {0x70F, 0x70F},     {0x711, 0x711},     {0x730, 0x74A},
    {0x7A6, 0x7B0},     {0x7EB, 0x7F5},     {0x7FA, 0x7FA},
    {0x7FD, 0x7FD},     {0x816, 0x82D},     {0x859, 0x85B},
    {0x888, 0x888},     {0x890, 0x891},     {0x898, 0x89F},
    {0x8C9, 0x902},     {0x93A, 0x93A},     {0x93C, 0x93C},
    {0x941, 0x948},     {0x94D, 0x94D},     {0x951, 0x957},
    {0x962, 0x963},     {0x971, 0x971},     {0x981, 0x981},
    {0x9BC, 0x9BC},     {0x9C1, 0x9C4},     {0x9CD, 0x9CD},
    {0x9E2, 0x9E3},     {0x9FE, 0x9FE},     {0xA01, 0xA02},
    {0xA3C, 0xA3C},     {0xA41, 0xA42},     {0xA47, 0xA48},
    {0xA4B, 0xA4D},     {0xA51, 0xA51},     {0xA70, 0xA71},
    {0xA75, 0xA75},     {0xA81, 0xA82},     {0xABC, 0xABC},
    {0xAC1, 0xAC5},     {0xAC7, 0xAC8},     {0xACD, 0xACD},
    {0xAE2, 0xAE3},     {0xAFA, 0xAFF},     {0xB01, 0xB01},
    {0xB3C, 0xB3C},     {0xB3F, 0xB3F},     {0xB41, 0xB44},
    {0xB4D, 0xB4D},     {0xB55, 0xB56},     {0xB62, 0xB63},
    {0xB82, 0xB82},     {0xBC0, 0xBC0},     {0xBCD, 0xBCD},
    {0xC00, 0xC00},     {0xC04, 0xC04},     {0xC3C, 0xC3C},
    {0xC3E, 0xC40},     {0xC46, 0xC48},     {0xC4A, 0xC4D},
    {0xC55, 0xC56},     {0xC62, 0xC63},     {0xC81, 0xC81},
    {0xCBC, 0xCBC},     {0xCBF, 0xCBF},     {0xCC6, 0xCC6},
    {0xCCC, 0xCCD},     {0xCE2, 0xCE3},     {0xD00, 0xD01},
    {0xD3B, 0xD3C},     {0xD41, 0xD44},     {0xD4D, 0xD4D},
    {0xD62, 0xD63},     {0xD81, 0xD81},     {0xDCA, 0xDCA},
    {0xDD2, 0xDD4},     {0xDD6, 0xDD6},     {0xE31, 0xE31},
    {0xE34, 0xE3A},     {0xE46, 0xE4E},     {0xEB1, 0xEB1},
    {0xEB4, 0xEBC},     {0xEC6, 0xEC6},     {0xEC8, 0xECD},
    {0xF18, 0xF19},     {0xF35, 0xF35},     {0xF37, 0xF37},
    {0xF39, 0xF39},     {0xF71, 0xF7E},     {0xF80, 0xF84},
    {0xF86, 0xF87},     {0xF8D, 0xF97},     {0xF99, 0xFBC},
    {0xFC6, 0xFC6},     {0x102D, 0x1030},   {0x1032, 0x1037},
    {0x1039, 0x103A},   {0x103D, 0x103E},   {0x1058, 0x1059},
    {0x105E, 0x1060},   {0x1071, 0x1074},   {0x1082, 0x1082},
    {0x1085, 0x1086},   {0x108D, 0x108D},   {0x109D, 0x109D},
    {0x10FC, 0x10FC},   {0x135D, 0x135F},   {0x1712, 0x1714},
    {0x1732, 0x1733},   {0x1752, 0x1753},   {0x1772, 0x1773},
    {0x17B4, 0x17B5},   {0x17B7, 0x17BD},   {0x17C6, 0x17C6},
    {0x17C9, 0x17D3},   {0x17D7, 0x17D7},   {0x17DD, 0x17DD},
    {0x180B, 0x180F},   {0x1843, 0x1843},   {0x1885, 0x1886},
    {0x18A9, 0x18A9},   {0x1920, 0x1922},   {0x1927, 0x1928},
    {0x1932, 0x1932},   {0x1939, 0x193B},   {0x1A17, 0x1A18},
    {0x1A1B, 0x1A1B},   {0x1A56, 0x1A56},   {0x1A58, 0x1A5E},
    {0x1A60, 0x1A60},   {0x1A62, 0x1A62},   {0x1A65, 0x1A6C},
    {0x1A73, 0x1A7C},   {0x1A7F, 0x1A7F},   {0x1AA7, 0x1AA7},
    {0x1AB0, 0x1ACE},   {0x1B00, 0x1B03},   {0x1B34, 0x1B34},
    {0x1B36, 0x1B3A},   {0x1B3C, 0x1B3C},   {0x1B42, 0x1B42},
    {0x1B6B, 0x1B73},   {0x1B80, 0x1B81},   {0x1BA2, 0x1BA5},
    {0x1BA8, 0x1BA9},   {0x1BAB, 0x1BAD},   {0x1BE6, 0x1BE6},
    {0x1BE8, 0x1BE9},   {0x1BED, 0x1BED},   {0x1BEF, 0x1BF1},
    {0x1C2C, 0x1C33},   {0x1C36, 0x1C37},   {0x1C78, 0x1C7D},
    {0x1CD0, 0x1CD2},   {0x1CD4, 0x1CE0},   {0x1CE2, 0x1CE8},
    {0x1CED, 0x1CED},   {0x1CF4, 0x1CF4},   {0x1CF8, 0x1CF9},
    {0x1D2C, 0x1D6A},   {0x1D78, 0x1D78},   {0x1D9B, 0x1DFF},
    {0x1FBD, 0x1FBD},   {0x1FBF, 0x1FC1},   {0x1FCD, 0x1FCF},
    {0x1FDD, 0x1FDF},   {0x1FED, 0x1FEF},   {0x1FFD, 0x1FFE},
    {0x200B, 0x200F},   {0x2018, 0x2019},   {0x2024, 0x2024},
    {0x2027, 0x2027},   {0x202A, 0x202E},   {0x2060, 0x2064},
    {0x2066, 0x206F},   {0x2071, 0x2071},   {0x207F, 0x207F},
    {0x2090, 0x209C},   {0x20D0, 0x20F0},   {0x2C7C, 0x2C7D},
    {0x2CEF, 0x2CF1},   {0x2D6F, 0x2D6F},   {0x2D7F, 0x2D7F},
    {0x2DE0, 0x2DFF},   {0x2E2F, 0x2E2F},   {0x3005, 0x3005},
    {0x302A, 0x302D},   {0x3031, 0x3035},   {0x303B, 0x303B},
    {0x3099, 0x309E},   {0x30FC, 0x30FE},   {0xA015, 0xA015},
    {0xA4F8, 0xA4FD},   {0xA60C, 0xA60C},   {0xA66F, 0xA672},
    {0xA674, 0xA67D},   {0xA67F, 0xA67F},   {0xA69C, 0xA69F},
    {0xA6F0, 0xA6F1},   {0xA700, 0xA721},   {0xA770, 0xA770},
    {0xA788, 0xA78A},   {0xA7F2, 0xA7F4},   {0xA7F8, 0xA7F9},
    {0xA802, 0xA802},   {0xA806, 0xA806},   {0xA80B, 0xA80B},
    {0xA825, 0xA826},   {0xA82C, 0xA82C},   {0xA8C4, 0xA8C5},
    {0xA8E0, 0xA8F1},   {0xA8FF, 0xA8FF},   {0xA926, 0xA92D},
    {0xA947, 0xA951},   {0xA980, 0xA982},   {0xA9B3, 0xA9B3},
    {0xA9B6, 0xA9B9},   {0xA9BC, 0xA9BD},   {0xA9CF, 0xA9CF},
    {0xA9E5, 0xA9E6},   {0xAA29, 0xAA2E},   {0xAA31, 0xAA32},
    {0xAA35, 0xAA36},   {0xAA43, 0xAA43},   {0xAA4C, 0xAA4C},
    {0xAA70, 0xAA70},   {0xAA7C, 0xAA7C},   {0xAAB0, 0xAAB0},
    {0xAAB2, 0xAAB4},   {0xAAB7, 0xAAB8},   {0xAABE, 0xAABF},
    {0xAAC1, 0xAAC1},   {0xAADD, 0xAADD},   {0xAAEC, 0xAAED},
    {0xAAF3, 0xAAF4},   {0xAAF6, 0xAAF6},   {0xAB5B, 0xAB5F},
    {0xAB69, 0xAB6B},   {0xABE5, 0xABE5},   {0xABE8, 0xABE8},
    {0xABED, 0xABED},   {0xFB1E, 0xFB1E},   {0xFBB2, 0xFBC2},
    {0xFE00, 0xFE0F},   {0xFE13, 0xFE13},   {0xFE20, 0xFE2F},
    {0xFE52, 0xFE52},   {0xFE55, 0xFE55},   {0xFEFF, 0xFEFF},
    {0xFF07, 0xFF07},   {0xFF0E, 0xFF0E},   {0xFF1A, 0xFF1A},
    {0xFF3E, 0xFF3E},   {0xFF40, 0xFF40},   {0xFF70, 0xFF70},
    {0xFF9E, 0xFF9F},   {0xFFE3, 0xFFE3},   {0xFFF9, 0xFFFB},
    {0x101FD, 0x101FD}, {0x102E0, 0x102E0}, {0x10376, 0x1037A},
    {0x10780, 0x10785}, {0x10787, 0x107B0}, {0x107B2, 0x107BA},
    {0x10A01, 0x10A03}, {0x10A05, 0x10A06}, {0x10A0C, 0x10A0F},
    {0x10A38, 0x10A3A}, {0x10A3F, 0x10A3F}, {0x10AE5, 0x10AE6},
    {0x10D24, 0x10D27}, {0x10EAB, 0x10EAC}, {0x10F46, 0x10F50},
    {0x10F82, 0x10F85}, {0x11001, 0x11001}, {0x11038, 0x11046},
    {0x11070, 0x11070}, {0x11073, 0x11074}, {0x1107F, 0x11081},
    {0x110B3, 0x110B6}, {0x110B9, 0x110BA}, {0x110BD, 0x110BD},
    {0x110C2, 0x110C2}, {0x110CD, 0x110CD}, {0x11100, 0x11102},
    {0x11127, 0x1112B}, {0x1112D, 0x11134}, {0x11173, 0x11173},
    {0x11180, 0x11181}, {0x111B6, 0x111BE}, {0x111C9, 0x111CC},
    {0x111CF, 0x111CF}, {0x1122F, 0x11231}, {0x11234, 0x11234},
    {0x11236, 0x11237}, {0x1123E, 0x1123E}, {0x112DF, 0x112DF},
    {0x112E3, 0x112EA}, {0x11300, 0x11301}, {0x1133B, 0x1133C},
    {0x11340, 0x11340}, {0x11366, 0x1136C}, {0x11370, 0x11374},
    {0x11438, 0x1143F}, {0x11442, 0x11444}, {0x11446, 0x11446},
    {0x1145E, 0x1145E}, {0x114B3, 0x114B8}, {0x114BA, 0x114BA},
    {0x114BF, 0x114C0}, {0x114C2, 0x114C3}, {0x115B2, 0x115B5},
    {0x115BC, 0x115BD}, {0x115BF, 0x115C0}, {0x115DC, 0x115DD},
    {0x11633, 0x1163A}, {0x1163D, 0x1163D}, {0x1163F, 0x11640},
    {0x116AB, 0x116AB}, {0x116AD, 0x116AD}, {0x116B0, 0x116B5},
    {0x116B7, 0x116B7}, {0x1171D, 0x1171F}, {0x11722, 0x11725},
    {0x11727, 0x1172B}, {0x1182F, 0x11837}, {0x11839, 0x1183A},
    {0x1193B, 0x1193C}, {0x1193E, 0x1193E}, {0x11943, 0x11943},
    {0x119D4, 0x119D7}, {0x119DA, 0x119DB}, {0x119E0, 0x119E0},
    {0x11A01, 0x11A0A}, {0x11A33, 0x11A38}, {0x11A3B, 0x11A3E},
    {0x11A47, 0x11A47}, {0x11A51, 0x11A56}, {0x11A59, 0x11A5B},
    {0x11A8A, 0x11A96}, {0x11A98, 0x11A99}, {0x11C30, 0x11C36},
    {0x11C38, 0x11C3D}, {0x11C3F, 0x11C3F}, {0x11C92, 0x11CA7},
    {0x11CAA, 0x11CB0}, {0x11CB2, 0x11CB3}, {0x11CB5, 0x11CB6},
    {0x11D31, 0x11D36}, {0x11D3A, 0x11D3A}, {0x11D3C, 0x11D3D},
    {0x11D3F, 0x11D45}, {0x11D47, 0x11D47}, {0x11D90, 0x11D91},
    {0x11D95, 0x11D95}, {0x11D97, 0x11D97}, {0x11EF3, 0x11EF4},
    {0x13430, 0x13438}, {0x16AF0, 0x16AF4}, {0x16B30, 0x16B36},
    {0x16B40, 0x16B43}, {0x16F4F, 0x16F4F}, {0x16F8F, 0x16F9F},
    {0x16FE0, 0x16FE1}, {0x16FE3, 0x16FE4}, {0x1AFF0, 0x1AFF3},
    {0x1AFF5, 0x1AFFB}, {0x1AFFD, 0x1AFFE}, {0x1BC9D, 0x1BC9E},
    {0x1BCA0, 0x1BCA3}, {0x1CF00, 0x1CF2D}, {0x1CF30, 0x1CF46},
    {0x1D167, 0x1D169}, {0x1D173, 0x1D182}, {0x1D185, 0x1D18B},
    {0x1D1AA, 0x1D1AD}, {0x1D242, 0x1D244}, {0x1DA00, 0x1DA36},
    {0x1DA3B, 0x1DA6C}, {0x1DA75, 0x1DA75}, {0x1DA84, 0x1DA84},
    {0x1DA9B, 0x1DA9F}, {0x1DAA1, 0x1DAAF}, {0x1E000, 0x1E006},
    {0x1E008, 0x1E018}, {0x1E01B, 0x1E021}, {0x1E023, 0x1E024},
    {0x1E026, 0x1E02A}, {0x1E130, 0x1E13D}, {0x1E2AE, 0x1E2AE},
    {0x1E2EC, 0x1E2EF}, {0x1E8D0, 0x1E8D6}, {0x1E944, 0x1E94B},
    {0x1F3FB, 0x1F3FF}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
    {0xE0100, 0xE01EF},
};
static const uint32_t tpl_cased[][2] = {
    {0x41, 0x5A},       {0x61, 0x7A},       {0xAA, 0xAA},
    {0xB5, 0xB5},       {0xBA, 0xBA},       {0xC0, 0xD6},
    {0xD8, 0xF6},       {0xF8, 0x1BA},      {0x1BC, 0x1BF},
    {0x1C4, 0x293},     {0x295, 0x2AF},     {0x370, 0x373},
    {0x376, 0x377},     {0x37B, 0x37D},     {0x37F, 0x37F},
    {0x386, 0x386},     {0x388, 0x38A},     {0x38C, 0x38C},
    {0x38E, 0x3A1},     {0x3A3, 0x3F5},     {0x3F7, 0x481},
    {0x48A, 0x52F},     {0x531, 0x556},     {0x560, 0x588},
    {0x10A0, 0x10C5},   {0x10C7, 0x10C7},   {0x10CD, 0x10CD},
    {0x10D0, 0x10FA},   {0x10FD, 0x10FF},   {0x13A0, 0x13F5},
    {0x13F8, 0x13FD},   {0x1C80, 0x1C88},   {0x1C90, 0x1CBA},
    {0x1CBD, 0x1CBF},   {0x1D00, 0x1D2B},   {0x1D6B, 0x1D77},
    {0x1D79, 0x1D9A},   {0x1E00, 0x1F15},   {0x1F18, 0x1F1D},
    {0x1F20, 0x1F45},   {0x1F48, 0x1F4D},   {0x1F50, 0x1F57},
    {0x1F59, 0x1F59},   {0x1F5B, 0x1F5B},   {0x1F5D, 0x1F5D},
    {0x1F5F, 0x1F7D},   {0x1F80, 0x1FB4},   {0x1FB6, 0x1FBC},
    {0x1FBE, 0x1FBE},   {0x1FC2, 0x1FC4},   {0x1FC6, 0x1FCC},
    {0x1FD0, 0x1FD3},   {0x1FD6, 0x1FDB},   {0x1FE0, 0x1FEC},
    {0x1FF2, 0x1FF4},   {0x1FF6, 0x1FFC},   {0x2102, 0x2102},
    {0x2107, 0x2107},   {0x210A, 0x2113},   {0x2115, 0x2115},
    {0x2119, 0x211D},   {0x2124, 0x2124},   {0x2126, 0x2126},
    {0x2128, 0x2128},   {0x212A, 0x212D},   {0x212F, 0x2134},
    {0x2139, 0x2139},   {0x213C, 0x213F},   {0x2145, 0x2149},
    {0x214E, 0x214E},   {0x2160, 0x217F},   {0x2183, 0x2184},
    {0x24B6, 0x24E9},   {0x2C00, 0x2C7B},   {0x2C7E, 0x2CE4},
    {0x2CEB, 0x2CEE},   {0x2CF2, 0x2CF3},   {0x2D00, 0x2D25},
    {0x2D27, 0x2D27},   {0x2D2D, 0x2D2D},   {0xA640, 0xA66D},
    {0xA680, 0xA69B},   {0xA722, 0xA76F},   {0xA771, 0xA787},
    {0xA78B, 0xA78E},   {0xA790, 0xA7CA},   {0xA7D0, 0xA7D1},
    {0xA7D3, 0xA7D3},   {0xA7D5, 0xA7D9},   {0xA7F5, 0xA7F6},
    {0xA7FA, 0xA7FA},   {0xAB30, 0xAB5A},   {0xAB60, 0xAB68},
    {0xAB70, 0xABBF},   {0xFB00, 0xFB06},   {0xFB13, 0xFB17},
    {0xFF21, 0xFF3A},   {0xFF41, 0xFF5A},   {0x10400, 0x1044F},
    {0x104B0, 0x104D3}, {0x104D8, 0x104FB}, {0x10570, 0x1057A},
    {0x1057C, 0x1058A}, {0x1058C, 0x10592}, {0x10594, 0x10595},
    {0x10597, 0x105A1}, {0x105A3, 0x105B1}, {0x105B3, 0x105B9},
    {0x105BB, 0x105BC}, {0x10C80, 0x10CB2}, {0x10CC0, 0x10CF2},
    {0x118A0, 0x118DF}, {0x16E40, 0x16E7F}, {0x1D400, 0x1D454},
    {0x1D456, 0x1D49C}, {0x1D49E, 0x1D49F}, {0x1D4A2, 0x1D4A2},
    {0x1D4A5, 0x1D4A6}, {0x1D4A9, 0x1D4AC}, {0x1D4AE, 0x1D4B9},
    {0x1D4BB, 0x1D4BB}, {0x1D4BD, 0x1D4C3}, {0x1D4C5, 0x1D505},
    {0x1D507, 0x1D50A}, {0x1D50D, 0x1D514}, {0x1D516, 0x1D51C},
    {0x1D51E, 0x1D539}, {0x1D53B, 0x1D53E}, {0x1D540, 0x1D544},
    {0x1D546, 0x1D546}, {0x1D54A, 0x1D550}, {0x1D552, 0x1D6A5},
    {0x1D6A8, 0x1D6C0}, {0x1D6C2, 0x1D6DA}, {0x1D6DC, 0x1D6FA},
    {0x1D6FC, 0x1D714}, {0x1D716, 0x1D734}, {0x1D736, 0x1D74E},
    {0x1D750, 0x1D76E}, {0x1D770, 0x1D788}, {0x1D78A, 0x1D7A8},
    {0x1D7AA, 0x1D7C2}, {0x1D7C4, 0x1D7CB}, {0x1DF00, 0x1DF09},
    {0x1DF0B, 0x1DF1E}, {0x1E900, 0x1E943}, {0x1F130, 0x1F149},
    {0x1F150, 0x1F169}, {0x1F170, 0x1F189},
};
static const uint32_t tpl_upper_special[][4] = {
    {0xDF, 0x53, 0x53, 0x0},       {0x149, 0x2BC, 0x4E, 0x0},
    {0x1F0, 0x4A, 0x30C, 0x0},     {0x390, 0x399, 0x308, 0x301},
    {0x3B0, 0x3A5, 0x308, 0x301},  {0x587, 0x535, 0x552, 0x0},
    {0x1E96, 0x48, 0x331, 0x0},    {0x1E97, 0x54, 0x308, 0x0},
    {0x1E98, 0x57, 0x30A, 0x0},    {0x1E99, 0x59, 0x30A, 0x0},
    {0x1E9A, 0x41, 0x2BE, 0x0},    {0x1F50, 0x3A5, 0x313, 0x0},
    {0x1F52, 0x3A5, 0x313, 0x300}, {0x1F54, 0x3A5, 0x313, 0x301},
    {0x1F56, 0x3A5, 0x313, 0x342}, {0x1F80, 0x1F08, 0x399, 0x0},
    {0x1F81, 0x1F09, 0x399, 0x0},  {0x1F82, 0x1F0A, 0x399, 0x0},
    {0x1F83, 0x1F0B, 0x399, 0x0},  {0x1F84, 0x1F0C, 0x399, 0x0},
    {0x1F85, 0x1F0D, 0x399, 0x0},  {0x1F86, 0x1F0E, 0x399, 0x0},
    {0x1F87, 0x1F0F, 0x399, 0x0},  {0x1F88, 0x1F08, 0x399, 0x0},
    {0x1F89, 0x1F09, 0x399, 0x0},  {0x1F8A, 0x1F0A, 0x399, 0x0},
    {0x1F8B, 0x1F0B, 0x399, 0x0},  {0x1F8C, 0x1F0C, 0x399, 0x0},
    {0x1F8D, 0x1F0D, 0x399, 0x0},  {0x1F8E, 0x1F0E, 0x399, 0x0},
    {0x1F8F, 0x1F0F, 0x399, 0x0},  {0x1F90, 0x1F28, 0x399, 0x0},
    {0x1F91, 0x1F29, 0x399, 0x0},  {0x1F92, 0x1F2A, 0x399, 0x0},
    {0x1F93, 0x1F2B, 0x399, 0x0},  {0x1F94, 0x1F2C, 0x399, 0x0},
    {0x1F95, 0x1F2D, 0x399, 0x0},  {0x1F96, 0x1F2E, 0x399, 0x0},
    {0x1F97, 0x1F2F, 0x399, 0x0},  {0x1F98, 0x1F28, 0x399, 0x0},
    {0x1F99, 0x1F29, 0x399, 0x0},  {0x1F9A, 0x1F2A, 0x399, 0x0},
    {0x1F9B, 0x1F2B, 0x399, 0x0},  {0x1F9C, 0x1F2C, 0x399, 0x0},
    {0x1F9D, 0x1F2D, 0x399, 0x0},  {0x1F9E, 0x1F2E, 0x399, 0x0},
    {0x1F9F, 0x1F2F, 0x399, 0x0},  {0x1FA0, 0x1F68, 0x399, 0x0},
    {0x1FA1, 0x1F69, 0x399, 0x0},  {0x1FA2, 0x1F6A, 0x399, 0x0},
    {0x1FA3, 0x1F6B, 0x399, 0x0},  {0x1FA4, 0x1F6C, 0x399, 0x0},
    {0x1FA5, 0x1F6D, 0x399, 0x0},  {0x1FA6, 0x1F6E, 0x399, 0x0},
    {0x1FA7, 0x1F6F, 0x399, 0x0},  {0x1FA8, 0x1F68, 0x399, 0x0},
    {0x1FA9, 0x1F69, 0x399, 0x0},  {0x1FAA, 0x1F6A, 0x399, 0x0},
    {0x1FAB, 0x1F6B, 0x399, 0x0},  {0x1FAC, 0x1F6C, 0x399, 0x0},
    {0x1FAD, 0x1F6D, 0x399, 0x0},  {0x1FAE, 0x1F6E, 0x399, 0x0},
    {0x1FAF, 0x1F6F, 0x399, 0x0},  {0x1FB2, 0x1FBA, 0x399, 0x0},
    {0x1FB3, 0x391, 0x399, 0x0},   {0x1FB4, 0x386, 0x399, 0x0},
    {0x1FB6, 0x391, 0x342, 0x0},   {0x1FB7, 0x391, 0x342, 0x399},
    {0x1FBC, 0x391, 0x399, 0x0},   {0x1FC2, 0x1FCA, 0x399, 0x0},
    {0x1FC3, 0x397, 0x399, 0x0},   {0x1FC4, 0x389, 0x399, 0x0},
    {0x1FC6, 0x397, 0x342, 0x0},   {0x1FC7, 0x397, 0x342, 0x399},
    {0x1FCC, 0x397, 0x399, 0x0},   {0x1FD2, 0x399, 0x308, 0x300},
    {0x1FD3, 0x399, 0x308, 0x301}, {0x1FD6, 0x399, 0x342, 0x0},
    {0x1FD7, 0x399, 0x308, 0x342}, {0x1FE2, 0x3A5, 0x308, 0x300},
    {0x1FE3, 0x3A5, 0x308, 0x301}, {0x1FE4, 0x3A1, 0x313, 0x0},
    {0x1FE6, 0x3A5, 0x342, 0x0},   {0x1FE7, 0x3A5, 0x308, 0x342},
    {0x1FF2, 0x1FFA, 0x399, 0x0},  {0x1FF3, 0x3A9, 0x399, 0x0},
    {0x1FF4, 0x38F, 0x399, 0x0},   {0x1FF6, 0x3A9, 0x342, 0x0},
    {0x1FF7, 0x3A9, 0x342, 0x399}, {0x1FFC, 0x3A9, 0x399, 0x0},
    {0xFB00, 0x46, 0x46, 0x0},     {0xFB01, 0x46, 0x49, 0x0},
    {0xFB02, 0x46, 0x4C, 0x0},     {0xFB03, 0x46, 0x46, 0x49},
    {0xFB04, 0x46, 0x46, 0x4C},    {0xFB05, 0x53, 0x54, 0x0},
    {0xFB06, 0x53, 0x54, 0x0},     {0xFB13, 0x544, 0x546, 0x0},
    {0xFB14, 0x544, 0x535, 0x0},   {0xFB15, 0x544, 0x53B, 0x0},
    {0xFB16, 0x54E, 0x546, 0x0},   {0xFB17, 0x544, 0x53D, 0x0},
};
static const uint32_t tpl_title_special[][4] = {
    {0xDF, 0x53, 0x73, 0x0},       {0x149, 0x2BC, 0x4E, 0x0},
    {0x1F0, 0x4A, 0x30C, 0x0},     {0x390, 0x399, 0x308, 0x301},
    {0x3B0, 0x3A5, 0x308, 0x301},  {0x587, 0x535, 0x582, 0x0},
    {0x1E96, 0x48, 0x331, 0x0},    {0x1E97, 0x54, 0x308, 0x0},
    {0x1E98, 0x57, 0x30A, 0x0},    {0x1E99, 0x59, 0x30A, 0x0},
    {0x1E9A, 0x41, 0x2BE, 0x0},    {0x1F50, 0x3A5, 0x313, 0x0},
    {0x1F52, 0x3A5, 0x313, 0x300}, {0x1F54, 0x3A5, 0x313, 0x301},
    {0x1F56, 0x3A5, 0x313, 0x342}, {0x1FB2, 0x1FBA, 0x345, 0x0},
    {0x1FB4, 0x386, 0x345, 0x0},   {0x1FB6, 0x391, 0x342, 0x0},
    {0x1FB7, 0x391, 0x342, 0x345}, {0x1FC2, 0x1FCA, 0x345, 0x0},
    {0x1FC4, 0x389, 0x345, 0x0},   {0x1FC6, 0x397, 0x342, 0x0},
    {0x1FC7, 0x397, 0x342, 0x345}, {0x1FD2, 0x399, 0x308, 0x300},
    {0x1FD3, 0x399, 0x308, 0x301}, {0x1FD6, 0x399, 0x342, 0x0},
    {0x1FD7, 0x399, 0x308, 0x342}, {0x1FE2, 0x3A5, 0x308, 0x300},
    {0x1FE3, 0x3A5, 0x308, 0x301}, {0x1FE4, 0x3A1, 0x313, 0x0},
    {0x1FE6, 0x3A5, 0x342, 0x0},   {0x1FE7, 0x3A5, 0x308, 0x342},
    {0x1FF2, 0x1FFA, 0x345, 0x0},  {0x1FF4, 0x38F, 0x345, 0x0},
    {0x1FF6, 0x3A9, 0x342, 0x0},   {0x1FF7, 0x3A9, 0x342, 0x345},
    {0xFB00, 0x46, 0x66, 0x0},     {0xFB01, 0x46, 0x69, 0x0},
    {0xFB02, 0x46, 0x6C, 0x0},     {0xFB03, 0x46, 0x66, 0x69},
    {0xFB04, 0x46, 0x66, 0x6C},    {0xFB05, 0x53, 0x74, 0x0},
    {0xFB06, 0x53, 0x74, 0x0},     {0xFB13, 0x544, 0x576, 0x0},
    {0xFB14, 0x544, 0x565, 0x0},   {0xFB15, 0x544, 0x56B, 0x0},
    {0xFB16, 0x54E, 0x576, 0x0},   {0xFB17, 0x544, 0x56D, 0x0},
};

static bool tpl_in_ranges(const uint32_t (*r)[2], size_t n, uint32_t cp) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cp < r[mid][0])
      hi = mid;
    else if (cp > r[mid][1])
      lo = mid + 1;
    else
      return true;
  }
  return false;
}

static const uint32_t *tpl_special(const uint32_t (*t)[4], size_t n,
                                   uint32_t cp) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cp < t[mid][0])
      hi = mid;
    else if (cp > t[mid][0])
      lo = mid + 1;
    else
      return &t[mid][1];
  }
  return NULL;
}

#define TPL_COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum { TPL_CASE_LOWER, TPL_CASE_UPPER, TPL_CASE_TITLE };

static void tpl_case_put(oc_sb *b, uint32_t cp, int mode) {
  char buf[4];
  const uint32_t *sp = NULL;
  if (mode == TPL_CASE_UPPER) {
    sp = tpl_special(tpl_upper_special, TPL_COUNT(tpl_upper_special), cp);
    if (!sp)
      cp = (uint32_t)utf8proc_toupper((utf8proc_int32_t)cp);
  } else if (mode == TPL_CASE_TITLE) {
    sp = tpl_special(tpl_title_special, TPL_COUNT(tpl_title_special), cp);
    if (!sp)
      cp = (uint32_t)utf8proc_totitle((utf8proc_int32_t)cp);
  } else if (cp == 0x130) {
    oc_sb_add(b, "i\xCC\x87", 3); /* İ → i + combining dot above */
    return;
  } else {
    cp = (uint32_t)utf8proc_tolower((utf8proc_int32_t)cp);
  }
  if (sp) {
    for (int i = 0; i < 3 && sp[i]; i++)
      oc_sb_add(b, buf, tpl_utf8_encode(sp[i], buf));
    return;
  }
  oc_sb_add(b, buf, tpl_utf8_encode(cp, buf));
}

/* mbstring's UTF-8 reader: a bad sequence is its maximal valid prefix
 * (at least one byte) and becomes one '?'. Returns the bytes consumed;
 * *cp is UINT32_MAX for a bad sequence. */
static size_t tpl_mb_next(const unsigned char *s, size_t len, uint32_t *cp) {
  unsigned c = s[0];
  *cp = UINT32_MAX;
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  unsigned lo = 0x80, hi = 0xBF;
  size_t need;
  if (c >= 0xC2 && c <= 0xDF)
    need = 1;
  else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    if (c == 0xE0)
      lo = 0xA0;
    if (c == 0xED)
      hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    if (c == 0xF0)
      lo = 0x90;
    if (c == 0xF4)
      hi = 0x8F;
  } else
    return 1;
  size_t i = 1;
  for (; i <= need; i++) {
    if (i >= len)
      return i;
    unsigned t = s[i];
    if (i == 1 ? (t < lo || t > hi) : (t < 0x80 || t > 0xBF))
      return i;
  }
  size_t n = tpl_utf8_decode(s, len, cp);
  return n ? n : 1;
}

static tpl_value tpl_str_case(tpl_rt *rt, tpl_value s, int mode) {
  bool ascii = true;
  for (size_t i = 0; i < s.len; i++)
    if ((unsigned char)s.u.s[i] >= 0x80) {
      ascii = false;
      break;
    }
  if (ascii) {
    char *p = oc_arena_alloc(rt->arena, (size_t)s.len + 1);
    bool word = false; /* title case: inside a word */
    for (size_t i = 0; i < s.len; i++) {
      unsigned char c = (unsigned char)s.u.s[i];
      bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
      bool to_upper =
          mode == TPL_CASE_UPPER || (mode == TPL_CASE_TITLE && !word);
      if (to_upper && lower)
        c = (unsigned char)(c - 32);
      else if (!to_upper && upper)
        c = (unsigned char)(c + 32);
      p[i] = (char)c;
      if (mode == TPL_CASE_TITLE) {
        uint32_t cp = (unsigned char)s.u.s[i];
        if (!tpl_in_ranges(tpl_case_ignorable, TPL_COUNT(tpl_case_ignorable),
                           cp))
          word = upper || lower;
      }
    }
    p[s.len] = '\0';
    return tpl_str(p, s.len);
  }
  oc_sb b;
  oc_sb_init(&b, rt->arena, (size_t)s.len + 8);
  const unsigned char *u = (const unsigned char *)s.u.s;
  bool word = false;
  for (size_t i = 0; i < s.len;) {
    uint32_t cp;
    size_t n = tpl_mb_next(u + i, s.len - i, &cp);
    i += n;
    if (cp == UINT32_MAX) {
      oc_sb_addc(&b, '?');
      continue;
    }
    if (mode == TPL_CASE_TITLE) {
      tpl_case_put(&b, cp, word ? TPL_CASE_LOWER : TPL_CASE_TITLE);
      if (!tpl_in_ranges(tpl_case_ignorable, TPL_COUNT(tpl_case_ignorable), cp))
        word = tpl_in_ranges(tpl_cased, TPL_COUNT(tpl_cased), cp);
    } else {
      tpl_case_put(&b, cp, mode);
    }
  }
  return tpl_sb_value(&b);
}

static tpl_value tpl_f_lower(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  return tpl_str_case(rt, tpl_str_arg(rt, ARG(0)), TPL_CASE_LOWER);
}

static tpl_value tpl_f_upper(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  return tpl_str_case(rt, tpl_str_arg(rt, ARG(0)), TPL_CASE_UPPER);
}

static tpl_value tpl_f_title(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  return tpl_str_case(rt, tpl_str_arg(rt, ARG(0)), TPL_CASE_TITLE);
}

static tpl_value tpl_f_capitalize(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                  const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  tpl_value s = tpl_str_arg(rt, ARG(0));
  tpl_value first = tpl_mb_substr(rt, s, 0, true, 1);
  tpl_value rest = tpl_str(s.u.s + first.len, s.len - first.len);
  first = tpl_str_case(rt, first, TPL_CASE_UPPER);
  rest = tpl_str_case(rt, rest, TPL_CASE_LOWER);
  return tpl_op_concat(rt, first, rest);
}

/* ---- other string filters ------------------------------------------- */

/* PHP's character masks for trim: bytes, with "a..z" ranges. */
static void tpl_charmask(const char *s, size_t len, bool mask[256]) {
  memset(mask, 0, 256);
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = u[i];
    if (i + 3 < len && u[i + 1] == '.' && u[i + 2] == '.' && u[i + 3] >= c) {
      for (unsigned x = c; x <= u[i + 3]; x++)
        mask[x] = true;
      i += 3;
    } else {
      mask[c] = true;
    }
  }
}

static tpl_value tpl_trim(tpl_value s, const bool mask[256], bool left,
                          bool right) {
  size_t a = 0, b = s.len;
  if (left)
    while (a < b && mask[(unsigned char)s.u.s[a]])
      a++;
  if (right)
    while (b > a && mask[(unsigned char)s.u.s[b - 1]])
      b--;
  return tpl_str(s.u.s + a, b - a);
}

static tpl_value tpl_f_trim(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value s = tpl_str_arg(rt, ARG(0));
  bool mask[256];
  if (HAS(1)) {
    tpl_value m = tpl_str_arg(rt, argv[1]);
    tpl_charmask(m.u.s, m.len, mask);
  } else {
    tpl_charmask(" \t\n\r\0\x0B", 6, mask);
  }
  bool left = true, right = true;
  if (HAS(2)) {
    tpl_value side = tpl_str_arg(rt, argv[2]);
    if (side.len == 4 && memcmp(side.u.s, "left", 4) == 0)
      right = false;
    else if (side.len == 5 && memcmp(side.u.s, "right", 5) == 0)
      left = false;
    else if (!(side.len == 4 && memcmp(side.u.s, "both", 4) == 0))
      tpl_fail(rt, loc,
               "Trimming side must be \"left\", \"right\" or \"both\".");
  }
  return tpl_trim(s, mask, left, right);
}

static tpl_value tpl_f_nl2br(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  tpl_value s = tpl_str_arg(rt, ARG(0));
  if (!s.len || (!memchr(s.u.s, '\n', s.len) && !memchr(s.u.s, '\r', s.len)))
    return s;
  oc_sb b;
  oc_sb_init(&b, rt->arena, (size_t)s.len + 64);
  size_t run = 0;
  for (size_t i = 0; i < s.len;) {
    char c = s.u.s[i];
    if (c != '\n' && c != '\r') {
      i++;
      continue;
    }
    oc_sb_add(&b, s.u.s + run, i - run);
    oc_sb_add(&b, "<br />", 6);
    /* \r\n and \n\r are one line break */
    size_t n = 1;
    if (i + 1 < s.len && (s.u.s[i + 1] == '\n' || s.u.s[i + 1] == '\r') &&
        s.u.s[i + 1] != c)
      n = 2;
    oc_sb_add(&b, s.u.s + i, n);
    i += n;
    run = i;
  }
  oc_sb_add(&b, s.u.s + run, s.len - run);
  return tpl_sb_value(&b);
}

static tpl_value tpl_f_spaceless(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                 const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  tpl_value s = tpl_str_arg(rt, ARG(0));
  oc_sb b;
  oc_sb_init(&b, rt->arena, (size_t)s.len + 1);
  const char *p = s.u.s;
  size_t n = s.len, run = 0;
  /* '>' whitespace+ '<' becomes '><' (PCRE's \s: space, \t \n \v \f \r) */
  for (size_t i = 0; i < n; i++) {
    if (p[i] != '>')
      continue;
    size_t j = i + 1;
    while (j < n && (p[j] == ' ' || (p[j] >= '\t' && p[j] <= '\r')))
      j++;
    if (j > i + 1 && j < n && p[j] == '<') {
      oc_sb_add(&b, p + run, i + 1 - run);
      run = j;
      i = j - 1;
    }
  }
  oc_sb_add(&b, p + run, n - run);
  bool mask[256];
  tpl_charmask(" \t\n\r\0\x0B", 6, mask);
  return tpl_trim(tpl_sb_value(&b), mask, true, true);
}

static inline bool tpl_isspace(unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}
static inline unsigned char tpl_tolower(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* php_tag_find: is the tag in tbuf (like "<a href=x>" or "</a>") in the
 * allowed set ("<a><b>")? */
static bool tpl_tag_allowed(const char *tag, size_t len, tpl_value set) {
  char norm[64];
  size_t n = 0;
  int state = 0;
  for (size_t i = 0; i < len && n < sizeof norm - 2; i++) {
    unsigned char c = tpl_tolower((unsigned char)tag[i]);
    if (c == '<') {
      norm[n++] = '<';
    } else if (c == '>') {
      break;
    } else if (!tpl_isspace(c)) {
      state = 1;
      if (c != '/' ||
          (i > 0 && tag[i - 1] != '<' && (i + 1 >= len || tag[i + 1] != '>')))
        norm[n++] = (char)c;
    } else if (state == 1) {
      break;
    }
  }
  norm[n++] = '>';
  if (n > set.len)
    return false;
  for (size_t i = 0; i + n <= set.len; i++)
    if (memcmp(set.u.s + i, norm, n) == 0)
      return true;
  return false;
}

/* Whether strip_tags ignores a '>': one that closes a '<' nested in a tag
 * (counted by depth, which it uncounts) or stands in quotes, in every state
 * but the comment's. */
static inline bool tpl_st_gt_inside(int *depth, char in_q) {
  if (*depth) {
    (*depth)--;
    return true;
  }
  return in_q != 0;
}

/* PHP's strip_tags state machine: 0 text, 1 tag, 2 <?...?>, 3 <!...>,
 * 4 <!-- comment -->. */
static tpl_value tpl_strip_tags(tpl_rt *rt, tpl_value s, tpl_value allow) {
  const char *buf = s.u.s;
  size_t len = s.len;
  char *out = oc_arena_alloc(rt->arena, len + 1);
  size_t o = 0;
  oc_sb tag;
  bool allowing = allow.type == TPL_STR;
  if (allowing)
    oc_sb_init(&tag, rt->arena, 64);
  int state = 0, depth = 0, br = 0;
  char in_q = 0, lc = 0;
  bool is_xml = false;
#define AT(k) ((k) < len ? buf[(k)] : '\0')
  for (size_t p = 0; p < len; p++) {
    char c = buf[p];
    switch (state) {
    case 0:
      if (c == '\0')
        break;
      if (c == '<') {
        if (in_q)
          break;
        if (tpl_isspace((unsigned char)AT(p + 1))) {
          out[o++] = c;
          break;
        }
        lc = '<';
        state = 1;
        if (allowing) {
          tag.len = 0;
          oc_sb_addc(&tag, '<');
        }
      } else if (c == '>') {
        if (!tpl_st_gt_inside(&depth, in_q))
          out[o++] = c;
      } else {
        out[o++] = c;
      }
      break;
    case 1:
      if (c == '\0')
        break;
      if (c == '<') {
        if (in_q)
          break;
        if (tpl_isspace((unsigned char)AT(p + 1)))
          goto reg_char;
        depth++;
        break;
      }
      if (c == '>') {
        if (tpl_st_gt_inside(&depth, in_q))
          break;
        lc = '>';
        if (is_xml && p >= 1 && buf[p - 1] == '-')
          break;
        in_q = 0;
        state = 0;
        is_xml = false;
        if (allowing) {
          oc_sb_addc(&tag, '>');
          if (tpl_tag_allowed(tag.p, tag.len, allow)) {
            memcpy(out + o, tag.p, tag.len);
            o += tag.len;
          }
          tag.len = 0;
        }
        break;
      }
      if (c == '"' || c == '\'') {
        if (p != 0 && (!in_q || c == in_q))
          in_q = in_q ? 0 : c;
        goto reg_char;
      }
      if (c == '!' && p >= 1 && buf[p - 1] == '<') {
        state = 3;
        lc = c;
        break;
      }
      if (c == '?' && p >= 1 && buf[p - 1] == '<') {
        br = 0;
        state = 2;
        break;
      }
    reg_char:
      if (allowing)
        oc_sb_addc(&tag, c);
      break;
    case 2:
      if (c == '(') {
        if (lc != '"' && lc != '\'') {
          lc = '(';
          br++;
        }
      } else if (c == ')') {
        if (lc != '"' && lc != '\'') {
          lc = ')';
          br--;
        }
      } else if (c == '>') {
        if (tpl_st_gt_inside(&depth, in_q))
          break;
        if (!br && p >= 1 && lc != '"' && buf[p - 1] == '?') {
          in_q = 0;
          state = 0;
          if (allowing)
            tag.len = 0;
        }
      } else if (c == '"' || c == '\'') {
        if (p >= 1 && buf[p - 1] != '\\') {
          if (lc == c)
            lc = 0;
          else if (lc != '\\')
            lc = c;
          if (p != 0 && (!in_q || c == in_q))
            in_q = in_q ? 0 : c;
        }
      } else if ((c == 'l' || c == 'L') && p > 4 &&
                 (buf[p - 1] == 'm' || buf[p - 1] == 'M') &&
                 (buf[p - 2] == 'x' || buf[p - 2] == 'X') &&
                 buf[p - 3] == '?' && buf[p - 4] == '<') {
        state = 1;
        is_xml = true;
      }
      break;
    case 3:
      if (c == '>') {
        if (tpl_st_gt_inside(&depth, in_q))
          break;
        in_q = 0;
        state = 0;
        if (allowing)
          tag.len = 0;
      } else if (c == '"' || c == '\'') {
        if (p != 0 && buf[p - 1] != '\\' && (!in_q || c == in_q))
          in_q = in_q ? 0 : c;
      } else if (c == '-') {
        if (p >= 2 && buf[p - 1] == '-' && buf[p - 2] == '!')
          state = 4;
      } else if ((c == 'E' || c == 'e') && p > 6) {
        static const char doctyp[] = "doctyp";
        bool match = true;
        for (int k = 0; k < 6; k++)
          if (tpl_tolower((unsigned char)buf[p - 6 + k]) != doctyp[k])
            match = false;
        if (match)
          state = 1;
      }
      break;
    default: /* 4 */
      if (c == '>' && !in_q && p >= 2 && buf[p - 1] == '-' &&
          buf[p - 2] == '-') {
        in_q = 0;
        state = 0;
        if (allowing)
          tag.len = 0;
      }
      break;
    }
  }
#undef AT
  out[o] = '\0';
  return tpl_str(out, o);
}

static tpl_value tpl_f_striptags(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                 const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  tpl_value s = tpl_str_arg(rt, ARG(0));
  tpl_value allow = tpl_null();
  if (HAS(1)) {
    tpl_arr a;
    oc_sb b;
    oc_sb_init(&b, rt->arena, 32);
    if (tpl_arr_of(rt, argv[1], &a)) {
      /* PHP 7.4+: a list of tag names */
      for (size_t i = 0; i < a.n; i++) {
        tpl_value t = tpl_str_arg(rt, tpl_arr_val(&a, i));
        oc_sb_addc(&b, '<');
        oc_sb_add(&b, t.u.s, t.len);
        oc_sb_addc(&b, '>');
      }
    } else {
      tpl_value t = tpl_str_arg(rt, argv[1]);
      oc_sb_add(&b, t.u.s, t.len);
    }
    for (size_t i = 0; i < b.len; i++)
      b.p[i] = (char)tpl_tolower((unsigned char)b.p[i]);
    allow = tpl_sb_value(&b);
  }
  if (!memchr(s.u.s, '<', s.len) && !memchr(s.u.s, '>', s.len) &&
      !memchr(s.u.s, '\0', s.len))
    return s;
  return tpl_strip_tags(rt, s, allow);
}

/* strtr() with an array: at each position the longest key wins. */
static tpl_value tpl_f_replace(tpl_rt *rt, tpl_ctx *ctx, int argc,
                               const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value s = tpl_str_arg(rt, ARG(0));
  tpl_arr a;
  if (!tpl_arr_of(rt, ARG(1), &a))
    tpl_fail(rt, loc,
             "The \"replace\" filter expects an array or \"Traversable\" as "
             "replace values, got \"%s\".",
             tpl_gettype(ARG(1)));
  size_t nk = 0, minlen = SIZE_MAX, maxlen = 0;
  tpl_value *keys =
      oc_arena_alloc(rt->arena, oc_size_mul(a.n + 1, sizeof(tpl_value)));
  tpl_value *vals =
      oc_arena_alloc(rt->arena, oc_size_mul(a.n + 1, sizeof(tpl_value)));
  bool first[256] = {false};
  for (size_t i = 0; i < a.n; i++) {
    tpl_value k = tpl_to_str(rt, tpl_arr_key(&a, i));
    if (k.len == 0)
      continue;
    keys[nk] = k;
    vals[nk] = tpl_str_arg(rt, tpl_arr_val(&a, i));
    first[(unsigned char)k.u.s[0]] = true;
    if (k.len < minlen)
      minlen = k.len;
    if (k.len > maxlen)
      maxlen = k.len;
    nk++;
  }
  if (nk == 0 || s.len == 0)
    return s;
  oc_sb b;
  oc_sb_init(&b, rt->arena, (size_t)s.len + 16);
  size_t run = 0;
  for (size_t i = 0; i < s.len;) {
    if (!first[(unsigned char)s.u.s[i]] || s.len - i < minlen) {
      i++;
      continue;
    }
    size_t best = SIZE_MAX, best_len = 0;
    for (size_t k = 0; k < nk; k++) {
      if (keys[k].len > best_len && keys[k].len <= s.len - i &&
          memcmp(s.u.s + i, keys[k].u.s, keys[k].len) == 0) {
        best = k;
        best_len = keys[k].len;
      }
    }
    if (best == SIZE_MAX) {
      i++;
      continue;
    }
    oc_sb_add(&b, s.u.s + run, i - run);
    oc_sb_add(&b, vals[best].u.s, vals[best].len);
    i += best_len;
    run = i;
  }
  oc_sb_add(&b, s.u.s + run, s.len - run);
  return tpl_sb_value(&b);
}

static tpl_value tpl_f_url_encode(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                  const tpl_value *argv, const tpl_loc *loc);

static tpl_value tpl_f_json_encode(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                   const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  int64_t flags = HAS(1) ? tpl_to_int(argv[1]) : 0;
  int64_t depth = HAS(2) ? tpl_to_int(argv[2]) : 512;
  return tpl_json_encode(rt, ARG(0), flags, depth, loc);
}

static tpl_value tpl_f_escape(tpl_rt *rt, tpl_ctx *ctx, int argc,
                              const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_escape strat = TPL_ESC_HTML;
  if (HAS(1)) {
    tpl_value name = tpl_str_arg(rt, argv[1]);
    if (!tpl_escape_by_name(name.u.s, name.len, &strat))
      tpl_fail(rt, loc,
               "Invalid escaping strategy \"%.*s\" (valid ones: html, js, url, "
               "css, html_attr, sh).",
               (int)(name.len > 100 ? 100 : name.len), name.u.s);
  }
  tpl_value v = ARG(0);
  if (HAS(3) && tpl_truthy(argv[3]) && v.type == TPL_STR && v.safe)
    return v;
  return tpl_escape_value(rt, v, strat, loc);
}

static tpl_value tpl_f_raw(tpl_rt *rt, tpl_ctx *ctx, int argc,
                           const tpl_value *argv, const tpl_loc *loc) {
  (void)rt, (void)ctx, (void)loc;
  return ARG(0);
}

static tpl_value tpl_f_default(tpl_rt *rt, tpl_ctx *ctx, int argc,
                               const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  if (tpl_is_empty(rt, ARG(0)))
    return argc >= 2 ? argv[1] : tpl_str("", 0);
  return argv[0];
}

/* ---- strings and arrays --------------------------------------------- */

/* Splits a string into its UTF-8 characters (preg_split('//u')-style). */
static tpl_value tpl_chars(tpl_rt *rt, tpl_value s, size_t chunk) {
  size_t n = tpl_utf8_len(s.u.s, s.len);
  size_t count = chunk ? (n + chunk - 1) / chunk : n;
  if (count == 0)
    count = 1;
  tpl_list *l = tpl_list_new(rt->arena, count);
  size_t off = 0;
  for (size_t i = 0; i < count; i++) {
    size_t step = tpl_utf8_offset(s.u.s + off, s.len - off, chunk ? chunk : 1);
    l->items[i] = tpl_str(s.u.s + off, step);
    off += step;
  }
  return tpl_list_value(l);
}

/* Appends v to the n parts of an array of cap, doubling it when full;
 * returns the array, moved or not. */
static tpl_value *tpl_parts_push(oc_arena *a, tpl_value *parts, size_t *n,
                                 size_t *cap, tpl_value v) {
  if (*n == *cap) {
    parts = oc_arena_grow(a, parts, *cap * sizeof *parts,
                          oc_size_mul(*cap * 2, sizeof *parts));
    *cap *= 2;
  }
  parts[(*n)++] = v;
  return parts;
}

static tpl_value tpl_f_split(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  tpl_value s = tpl_str_arg(rt, ARG(0));
  tpl_value d = tpl_str_arg(rt, ARG(1));
  bool has_limit = HAS(2);
  int64_t limit = has_limit ? tpl_to_int(argv[2]) : INT64_MAX;
  if (d.len == 0) {
    if (!has_limit || limit <= 1) {
      if (!tpl_utf8_valid(s.u.s, s.len))
        return tpl_bool(false); /* preg_split fails on bad UTF-8 */
      return tpl_chars(rt, s, 0);
    }
    if ((int64_t)tpl_utf8_len(s.u.s, s.len) < limit)
      return tpl_list_of(rt->arena, &s, 1);
    return tpl_chars(rt, s, (size_t)limit);
  }
  /* explode() */
  if (limit == 0)
    limit = 1;
  size_t cap = 8, n = 0;
  tpl_value *parts = oc_arena_alloc(rt->arena, cap * sizeof *parts);
  size_t start = 0;
  for (size_t i = 0; i + d.len <= s.len;) {
    if (limit > 0 && (int64_t)n == limit - 1)
      break;
    if (memcmp(s.u.s + i, d.u.s, d.len) != 0) {
      i++;
      continue;
    }
    parts = tpl_parts_push(rt->arena, parts, &n, &cap,
                           tpl_str(s.u.s + start, i - start));
    i += d.len;
    start = i;
  }
  parts = tpl_parts_push(rt->arena, parts, &n, &cap,
                         tpl_str(s.u.s + start, s.len - start));
  if (limit < 0) {
    /* all but the last -limit parts; nothing when there was no delimiter */
    if (n == 1)
      return tpl_empty_list(rt);
    uint64_t drop = (uint64_t)0 - (uint64_t)limit;
    n = drop >= n ? 0 : n - (size_t)drop;
  }
  tpl_list *l = oc_arena_alloc(rt->arena, sizeof *l);
  l->len = n;
  l->items = parts;
  return tpl_list_value(l);
}

static tpl_value tpl_f_reverse(tpl_rt *rt, tpl_ctx *ctx, int argc,
                               const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  tpl_value v = ARG(0);
  bool preserve = HAS(1) && tpl_truthy(argv[1]);
  tpl_arr a;
  if (tpl_arr_of(rt, v, &a)) {
    if (a.list && !preserve) {
      tpl_list *l = tpl_list_new(rt->arena, a.n);
      for (size_t i = 0; i < a.n; i++)
        l->items[i] = a.list->items[a.n - 1 - i];
      return tpl_list_value(l);
    }
    tpl_map *m = tpl_map_new(rt->arena, a.n);
    for (size_t i = a.n; i-- > 0;) {
      tpl_value k = tpl_arr_key(&a, i);
      if (k.type == TPL_INT && !preserve)
        tpl_map_push(rt->arena, m, tpl_arr_val(&a, i));
      else
        tpl_map_set(rt->arena, m, k, tpl_arr_val(&a, i));
    }
    return tpl_map_or_list(rt->arena, m);
  }
  tpl_value s = tpl_str_arg(rt, v);
  if (!tpl_utf8_valid(s.u.s, s.len))
    return tpl_str("", 0); /* preg_match_all('/./us') fails */
  char *p = oc_arena_alloc(rt->arena, (size_t)s.len + 1);
  size_t i = 0;
  while (i < s.len) {
    uint32_t cp;
    size_t n =
        tpl_utf8_decode((const unsigned char *)s.u.s + i, s.len - i, &cp);
    memcpy(p + s.len - i - n, s.u.s + i, n);
    i += n;
  }
  p[s.len] = '\0';
  return tpl_str(p, s.len);
}

static tpl_value tpl_f_join(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value v = ARG(0);
  tpl_arr a;
  tpl_list one = {1, &v};
  if (!tpl_arr_of(rt, v, &a)) {
    /* (array) cast: null → [], a scalar → [scalar] */
    a.map = NULL;
    a.list = &one;
    a.n = v.type == TPL_NULL ? 0 : 1;
  }
  if (a.n == 0)
    return tpl_str("", 0);
  tpl_work(rt, a.n, loc);
  tpl_value glue = HAS(1) ? tpl_str_arg(rt, argv[1]) : tpl_str("", 0);
  bool has_and = HAS(2);
  tpl_value and = has_and ? tpl_str_arg(rt, argv[2]) : glue;
  if (has_and && and.len == glue.len &&
      memcmp(and.u.s, glue.u.s, glue.len) == 0)
    has_and = false;
  if (has_and && a.n == 1)
    return tpl_arr_val(&a, 0);
  oc_sb b;
  oc_sb_init(&b, rt->arena, 64);
  for (size_t i = 0; i < a.n; i++) {
    if (i)
      oc_sb_add(&b, (has_and && i == a.n - 1) ? and.u.s : glue.u.s,
                 (has_and && i == a.n - 1) ? and.len : glue.len);
    tpl_sb_add_value(rt, &b, tpl_arr_val(&a, i));
  }
  return tpl_sb_value(&b);
}

static tpl_value tpl_f_keys(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  tpl_arr a;
  if (!tpl_arr_of(rt, ARG(0), &a))
    return tpl_empty_list(rt);
  tpl_list *l = tpl_list_new(rt->arena, a.n);
  for (size_t i = 0; i < a.n; i++)
    l->items[i] = tpl_arr_key(&a, i);
  return tpl_list_value(l);
}

static tpl_value tpl_f_length(tpl_rt *rt, tpl_ctx *ctx, int argc,
                              const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  return tpl_int(tpl_length(rt, ARG(0)));
}

static tpl_value tpl_f_slice(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  return tpl_slice(rt, ARG(0), ARG(1), ARG(2), HAS(3) && tpl_truthy(argv[3]),
                   loc);
}

static tpl_value tpl_first_last(tpl_rt *rt, tpl_value v, bool last,
                                const tpl_loc *loc) {
  tpl_value r =
      tpl_slice(rt, v, tpl_int(last ? -1 : 0), tpl_int(1), false, loc);
  if (r.type == TPL_STR)
    return r;
  tpl_arr a;
  tpl_arr_of(rt, r, &a);
  return a.n ? tpl_arr_val(&a, 0) : tpl_bool(false);
}

static tpl_value tpl_f_first(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  return tpl_first_last(rt, ARG(0), false, loc);
}

static tpl_value tpl_f_last(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  return tpl_first_last(rt, ARG(0), true, loc);
}

/* rawurlencode, and http_build_query(..., PHP_QUERY_RFC3986) for arrays */
static void tpl_query(tpl_rt *rt, oc_sb *b, tpl_value v, tpl_value prefix,
                      bool *first) {
  tpl_arr a;
  if (!tpl_arr_of(rt, v, &a))
    return;
  for (size_t i = 0; i < a.n; i++) {
    tpl_value val = tpl_arr_val(&a, i);
    if (val.type == TPL_NULL)
      continue;
    tpl_value k = tpl_to_str(rt, tpl_arr_key(&a, i));
    oc_sb key;
    oc_sb_init(&key, rt->arena, (size_t)prefix.len + k.len + 8);
    if (prefix.len) {
      oc_sb_add(&key, prefix.u.s, prefix.len);
      oc_sb_add(&key, "%5B", 3);
      tpl_escape_sb(rt, &key, k.u.s, k.len, TPL_ESC_URL, NULL);
      oc_sb_add(&key, "%5D", 3);
    } else {
      tpl_escape_sb(rt, &key, k.u.s, k.len, TPL_ESC_URL, NULL);
    }
    if (val.type == TPL_LIST || val.type == TPL_MAP || val.type == TPL_OBJ) {
      tpl_query(rt, b, val, tpl_sb_value(&key), first);
      continue;
    }
    if (!*first)
      oc_sb_addc(b, '&');
    *first = false;
    oc_sb_add(b, key.p, key.len);
    oc_sb_addc(b, '=');
    tpl_value s = val.type == TPL_BOOL ? tpl_str(val.u.b ? "1" : "0", 1)
                                       : tpl_to_str(rt, val);
    tpl_escape_sb(rt, b, s.u.s, s.len, TPL_ESC_URL, NULL);
  }
}

static tpl_value tpl_f_url_encode(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                  const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value v = ARG(0);
  oc_sb b;
  if (v.type == TPL_LIST || v.type == TPL_MAP) {
    oc_sb_init(&b, rt->arena, 64);
    bool first = true;
    tpl_query(rt, &b, v, tpl_str("", 0), &first);
    return tpl_sb_value(&b);
  }
  tpl_value s = tpl_str_arg(rt, v);
  oc_sb_init(&b, rt->arena, (size_t)s.len + 16);
  tpl_escape_sb(rt, &b, s.u.s, s.len, TPL_ESC_URL, loc);
  return tpl_sb_value(&b);
}

/* ---- numbers -------------------------------------------------------- */

/* An int|float parameter of a PHP function (coercive typing). */
static tpl_value tpl_num_param(tpl_rt *rt, tpl_value v, const char *fn,
                               const char *param, const tpl_loc *loc) {
  tpl_value n;
  /* Unlike arithmetic, an int|float parameter takes no leading-numeric
   * string ("1 4", "1e3x"): PHP throws the TypeError. */
  if (v.type == TPL_STR ? tpl_str_numeric_prefix(v.u.s, v.len, &n) == 2
                        : tpl_coerce_number(v, &n))
    return n;
  tpl_fail(rt, loc,
           "%s(): Argument #1 ($%s) must be of type int|float, %s given", fn,
           param, tpl_type_name(v));
}

static tpl_value tpl_f_abs(tpl_rt *rt, tpl_ctx *ctx, int argc,
                           const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value n = tpl_num_param(rt, ARG(0), "abs", "num", loc);
  if (n.type == TPL_FLOAT)
    return tpl_float(fabs(n.u.f));
  if (n.u.i == INT64_MIN)
    return tpl_float(-(double)INT64_MIN);
  return tpl_int(n.u.i < 0 ? -n.u.i : n.u.i);
}

static tpl_value tpl_f_round(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  double v = tpl_to_float(ARG(0));
  int64_t prec = HAS(1) ? tpl_to_int(argv[1]) : 0;
  if (prec > 1000)
    prec = 1000;
  if (prec < -1000)
    prec = -1000;
  tpl_value method = HAS(2) ? tpl_str_arg(rt, argv[2]) : tpl_str("common", 6);
  if (method.len == 6 && memcmp(method.u.s, "common", 6) == 0)
    return tpl_float(tpl_php_round(v, (int)prec));
  bool ceil_m = method.len == 4 && memcmp(method.u.s, "ceil", 4) == 0;
  bool floor_m = method.len == 5 && memcmp(method.u.s, "floor", 5) == 0;
  if (!ceil_m && !floor_m)
    tpl_fail(rt, loc,
             "The round filter only supports the \"common\", \"ceil\", "
             "and \"floor\" methods.");
  /* $method($value * 10 ** $precision) / 10 ** $precision */
  tpl_value p10 = tpl_op_pow(rt, tpl_int(10), tpl_int(prec), loc);
  double f = p10.type == TPL_INT ? (double)p10.u.i : p10.u.f;
  double x = v * f;
  x = ceil_m ? ceil(x) : floor(x);
  return tpl_float(x / f);
}

static tpl_value tpl_number_format(tpl_rt *rt, double d, int64_t dec,
                                   tpl_value point, tpl_value sep) {
  if (dec > 1000)
    dec = 1000;
  if (dec < 0)
    dec = 0;
  d = tpl_php_round(d, (int)dec);
  bool neg = d < 0;
  d = fabs(d); /* -0 prints as 0 */
  size_t cap = (size_t)dec + 400;
  char *tmp = oc_arena_alloc(rt->arena, cap);
  int n = snprintf(tmp, cap, "%.*f", (int)dec, d);
  if (n < 0)
    n = 0;
  if (neg && d == 0)
    neg = false;
  oc_sb b;
  oc_sb_init(&b, rt->arena, (size_t)n + 32);
  if (!(tmp[0] >= '0' && tmp[0] <= '9')) {
    /* inf, nan */
    if (neg)
      oc_sb_addc(&b, '-');
    for (int i = 0; i < n; i++)
      oc_sb_addc(
          &b, (char)(tmp[i] >= 'a' && tmp[i] <= 'z' ? tmp[i] - 32 : tmp[i]));
    return tpl_sb_value(&b);
  }
  const char *dot = memchr(tmp, '.', (size_t)n);
  size_t int_len = dot ? (size_t)(dot - tmp) : (size_t)n;
  if (neg)
    oc_sb_addc(&b, '-');
  for (size_t i = 0; i < int_len; i++) {
    if (i && (int_len - i) % 3 == 0)
      oc_sb_add(&b, sep.u.s, sep.len);
    oc_sb_addc(&b, tmp[i]);
  }
  if (dec > 0 && dot) {
    oc_sb_add(&b, point.u.s, point.len);
    oc_sb_add(&b, dot + 1, (size_t)n - int_len - 1);
  }
  return tpl_sb_value(&b);
}

static tpl_value tpl_f_number_format(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                     const tpl_value *argv,
                                     const tpl_loc *loc) {
  (void)ctx, (void)loc;
  double d = tpl_to_float(ARG(0));
  int64_t dec = HAS(1) ? tpl_to_int(argv[1]) : 0;
  tpl_value point = HAS(2) ? tpl_str_arg(rt, argv[2]) : tpl_str(".", 1);
  tpl_value sep = HAS(3) ? tpl_str_arg(rt, argv[3]) : tpl_str(",", 1);
  return tpl_number_format(rt, d, dec, point, sep);
}

/* ---- format: PHP's sprintf ------------------------------------------ */

/* Widths and precisions beyond this would exhaust PHP's memory limit. */
#define TPL_FMT_MAX (1 << 24)

/* php_sprintf_appendstring: width, precision (for %s), padding, sign. */
static void tpl_fmt_put(oc_sb *b, const char *s, size_t len, size_t width,
                        size_t max, bool has_max, char pad, bool left, bool neg,
                        bool plus) {
  size_t copy = has_max && max < len ? max : len;
  size_t npad = width > copy ? width - copy : 0;
  if (!left) {
    if ((neg || plus) && pad == '0' && copy > 0) {
      oc_sb_addc(b, s[0]);
      s++;
      copy--;
    }
    for (size_t i = 0; i < npad; i++)
      oc_sb_addc(b, pad);
  }
  oc_sb_add(b, s, copy);
  if (left)
    for (size_t i = 0; i < npad; i++)
      oc_sb_addc(b, pad);
}

/* The next of the nargs arguments, for a '*' width or precision. */
static int64_t tpl_fmt_star(tpl_rt *rt, const tpl_value *args, int nargs,
                            int *cur, const tpl_loc *loc) {
  int a = (*cur)++;
  if (a >= nargs)
    tpl_fail(rt, loc, "%d arguments are required, %d given", a + 2, nargs + 1);
  return tpl_to_int(args[a]);
}

static tpl_value tpl_f_format(tpl_rt *rt, tpl_ctx *ctx, int argc,
                              const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value f = tpl_str_arg(rt, ARG(0));
  const tpl_value *args = argv + 1;
  int nargs = argc > 1 ? argc - 1 : 0;
  oc_sb b;
  oc_sb_init(&b, rt->arena, (size_t)f.len + 32);
  const char *p = f.u.s, *end = p + f.len;
  int cur = 0, max_missing = -1;
  while (p < end) {
    if (*p != '%') {
      const char *q = memchr(p, '%', (size_t)(end - p));
      if (!q)
        q = end;
      oc_sb_add(&b, p, (size_t)(q - p));
      p = q;
      continue;
    }
    p++;
    if (p < end && *p == '%') {
      oc_sb_addc(&b, '%');
      p++;
      continue;
    }
    int argnum = -1;
    /* argnum$ */
    const char *q = p;
    int64_t num = 0;
    while (q < end && *q >= '0' && *q <= '9' && num < 1000000)
      num = num * 10 + (*q++ - '0');
    if (q > p && q < end && *q == '$') {
      if (num <= 0 || num >= INT32_MAX)
        tpl_fail(rt, loc,
                 "Argument number specifier must be greater than zero "
                 "and less than %d",
                 INT32_MAX);
      argnum = (int)num - 1;
      p = q + 1;
    }
    char pad = ' ';
    bool left = false, plus = false;
    for (; p < end; p++) {
      if (*p == ' ' || *p == '0')
        pad = *p;
      else if (*p == '-')
        left = true;
      else if (*p == '+')
        plus = true;
      else if (*p == '\'') {
        if (p + 1 < end) {
          p++;
          pad = *p;
        } else {
          tpl_fail(rt, loc, "Missing padding character");
        }
      } else
        break;
    }
    size_t width = 0, prec = 0;
    bool has_prec = false;
    if (p < end && *p == '*') {
      p++;
      int64_t w = tpl_fmt_star(rt, args, nargs, &cur, loc);
      if (w < 0 || w > INT32_MAX)
        tpl_fail(rt, loc, "Width must be greater than zero and less than %d",
                 INT32_MAX);
      width = (size_t)w;
    } else {
      while (p < end && *p >= '0' && *p <= '9') {
        width = width * 10 + (size_t)(*p++ - '0');
        if (width > INT32_MAX)
          tpl_fail(rt, loc, "Width must be greater than zero and less than %d",
                   INT32_MAX);
      }
    }
    if (p < end && *p == '.') {
      p++;
      has_prec = true;
      if (p < end && *p == '*') {
        p++;
        int64_t pr = tpl_fmt_star(rt, args, nargs, &cur, loc);
        if (pr < -1 || pr > INT32_MAX)
          tpl_fail(rt, loc, "Precision must be between -1 and %d", INT32_MAX);
        prec = pr < 0 ? 0 : (size_t)pr;
      } else {
        while (p < end && *p >= '0' && *p <= '9') {
          prec = prec * 10 + (size_t)(*p++ - '0');
          if (prec > INT32_MAX)
            tpl_fail(rt, loc,
                     "Precision must be greater than zero and less "
                     "than %d",
                     INT32_MAX);
        }
      }
    }
    if (width > TPL_FMT_MAX || (has_prec && prec > TPL_FMT_MAX))
      tpl_fail(rt, loc, "format: width or precision too large");
    if (p < end && *p == 'l')
      p++;
    if (p >= end)
      tpl_fail(rt, loc, "Missing format specifier at end of string");
    char conv = *p++;
    /* "%5%" takes an argument and prints '%', as PHP's does */
    int a = argnum >= 0 ? argnum : cur++;
    if (a >= nargs) {
      if (a > max_missing)
        max_missing = a;
      continue;
    }
    if (conv == '%') {
      oc_sb_addc(&b, '%');
      continue;
    }
    tpl_value v = args[a];
    char buf[512];
    switch (conv) {
    case 's': {
      tpl_value s = tpl_str_arg(rt, v);
      tpl_fmt_put(&b, s.u.s, s.len, width, prec, has_prec, pad, left, false,
                  false);
      break;
    }
    case 'd': {
      int64_t i = tpl_to_int(v);
      if (left && pad == '0')
        pad = ' '; /* PHP pads integers on the right with spaces only */
      size_t n = 0;
      if (i >= 0 && plus)
        buf[n++] = '+';
      n += oc_format_int(i, buf + n);
      tpl_fmt_put(&b, buf, n, width, 0, false, pad, left, i < 0, plus);
      break;
    }
    case 'u': {
      int n = snprintf(buf, sizeof buf, "%llu",
                       (unsigned long long)(uint64_t)tpl_to_int(v));
      if (left && pad == '0')
        pad = ' ';
      tpl_fmt_put(&b, buf, (size_t)n, width, 0, false, pad, left, false, false);
      break;
    }
    case 'c': {
      char c = (char)tpl_to_int(v);
      oc_sb_addc(&b, c);
      break;
    }
    case 'x':
    case 'X':
    case 'o':
    case 'b': {
      uint64_t u = (uint64_t)tpl_to_int(v);
      int shift = conv == 'o' ? 3 : conv == 'b' ? 1 : 4;
      const char *digits =
          conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
      char tmp[70];
      size_t n = 0;
      do {
        tmp[n++] = digits[u & ((1u << shift) - 1)];
        u >>= shift;
      } while (u);
      for (size_t i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
      /* PHP passes a maximum width of 0 here, so any precision prints no
       * digits at all */
      tpl_fmt_put(&b, buf, n, width, 0, has_prec, pad, left, false, false);
      break;
    }
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
    case 'h':
    case 'H': {
      double d = tpl_to_float(v);
      size_t pr = has_prec ? (prec > 53 ? 53 : prec) : 6;
      bool neg = signbit(d) && !isnan(d);
      size_t n = 0;
      if (isnan(d) || isinf(d)) {
        const char *t = isnan(d) ? "NaN" : neg ? "-Inf" : plus ? "+Inf" : "Inf";
        tpl_fmt_put(&b, t, strlen(t), width, 0, false, pad, left, neg, plus);
        break;
      }
      if (conv == 'g' || conv == 'G' || conv == 'h' || conv == 'H') {
        if (pr == 0)
          pr = 1;
        char e = conv == 'G' || conv == 'H' ? 'E' : 'e';
        if (!neg && plus)
          buf[n++] = '+';
        n += tpl_gcvt(d, (int)pr, e, buf + n);
        neg = buf[0] == '-';
      } else {
        double a = fabs(d);
        neg = d < 0; /* -0.0 prints without a sign, as in PHP */
        if (neg)
          buf[n++] = '-';
        else if (plus)
          buf[n++] = '+';
        if (conv == 'f' || conv == 'F') {
          n += (size_t)snprintf(buf + n, sizeof buf - n, "%.*f", (int)pr, a);
        } else {
          /* PHP's exponent has no leading zeros: 1.5e+3 */
          char tmp[128];
          snprintf(tmp, sizeof tmp, "%.*e", (int)pr, a);
          char *ep = strchr(tmp, 'e');
          size_t mant = (size_t)(ep - tmp);
          memcpy(buf + n, tmp, mant);
          n += mant;
          buf[n++] = conv;
          int x = atoi(ep + 1);
          buf[n++] = x < 0 ? '-' : '+';
          n += oc_format_int(x < 0 ? -x : x, buf + n);
        }
      }
      tpl_fmt_put(&b, buf, n, width, 0, false, pad, left, neg, plus);
      break;
    }
    default:
      tpl_fail(rt, loc, "Unknown format specifier \"%c\"", conv);
    }
  }
  if (max_missing >= 0)
    tpl_fail(rt, loc, "%d arguments are required, %d given", max_missing + 2,
             nargs + 1);
  return tpl_sb_value(&b);
}

/* ---- array filters -------------------------------------------------- */

static void tpl_need_iterable(tpl_rt *rt, tpl_value v, tpl_arr *a,
                              const char *fmt, const tpl_loc *loc) {
  if (!tpl_arr_of(rt, v, a))
    tpl_fail(rt, loc, fmt, tpl_gettype(v));
}

static tpl_value tpl_f_merge(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_arr x, y;
  tpl_need_iterable(
      rt, ARG(0), &x,
      "The merge filter only works with arrays or \"Traversable\", "
      "got \"%s\" as first argument.",
      loc);
  tpl_need_iterable(
      rt, ARG(1), &y,
      "The merge filter only works with arrays or \"Traversable\", "
      "got \"%s\" as second argument.",
      loc);
  if (x.list && y.list) {
    tpl_list *l = tpl_list_new(rt->arena, oc_size_add(x.n, y.n));
    if (x.n)
      memcpy(l->items, x.list->items, x.n * sizeof(tpl_value));
    if (y.n)
      memcpy(l->items + x.n, y.list->items, y.n * sizeof(tpl_value));
    return tpl_list_value(l);
  }
  tpl_map *m = tpl_map_new(rt->arena, oc_size_add(x.n, y.n));
  const tpl_arr *both[2] = {&x, &y};
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < both[k]->n; i++) {
      tpl_value key = tpl_arr_key(both[k], i);
      if (key.type == TPL_INT)
        tpl_map_push(rt->arena, m, tpl_arr_val(both[k], i));
      else
        tpl_map_set(rt->arena, m, key, tpl_arr_val(both[k], i));
    }
  return tpl_map_or_list(rt->arena, m);
}

static tpl_value tpl_f_batch(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_arr a;
  tpl_need_iterable(rt, ARG(0), &a,
                    "The \"batch\" filter expects an array or \"Traversable\", "
                    "got \"%s\".",
                    loc);
  double dsize = ceil(tpl_to_float(ARG(1)));
  int64_t size = tpl_double_to_int(dsize);
  if (size < 1)
    tpl_fail(rt, loc,
             "array_chunk(): Argument #2 ($length) must be greater than 0");
  bool preserve =
      !(argc > 3 && argv[3].type != TPL_NULL && !tpl_truthy(argv[3]));
  bool fill = HAS(2);
  size_t nchunks = a.n / (uint64_t)size + (a.n % (uint64_t)size ? 1 : 0);
  tpl_list *rows = tpl_list_new(rt->arena, nchunks);
  for (size_t c = 0; c < nchunks; c++) {
    size_t from = c * (size_t)size;
    size_t to = from + (size_t)size < a.n ? from + (size_t)size : a.n;
    bool last = c == nchunks - 1;
    size_t extra = last && fill ? (size_t)size - (to - from) : 0;
    if (extra > ((size_t)1 << 22)) /* PHP would run out of memory */
      tpl_fail(rt, loc, "batch: the size is too large to fill");
    tpl_map *m = tpl_map_new(rt->arena, to - from + extra);
    for (size_t i = from; i < to; i++) {
      if (preserve)
        tpl_map_set(rt->arena, m, tpl_arr_key(&a, i), tpl_arr_val(&a, i));
      else
        tpl_map_push(rt->arena, m, tpl_arr_val(&a, i));
    }
    for (size_t i = 0; i < extra; i++)
      tpl_map_push(rt->arena, m, argv[2]);
    rows->items[c] = tpl_map_or_list(rt->arena, m);
  }
  return tpl_list_value(rows);
}

/* A row's field for array_column: an array key or an object property. */
static bool tpl_column_get(tpl_rt *rt, tpl_value row, tpl_value key,
                           tpl_value *out) {
  if (row.type == TPL_LIST || row.type == TPL_MAP || row.type == TPL_OBJ)
    return tpl_has_attr(rt, row, key, out);
  return false;
}

static tpl_value tpl_f_column(tpl_rt *rt, tpl_ctx *ctx, int argc,
                              const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_arr a;
  tpl_need_iterable(rt, ARG(0), &a,
                    "The column filter only works with arrays or "
                    "\"Traversable\", got \"%s\" as first argument.",
                    loc);
  tpl_value name = ARG(1), index = ARG(2);
  tpl_map *m = tpl_map_new(rt->arena, a.n);
  for (size_t i = 0; i < a.n; i++) {
    tpl_value row = tpl_arr_val(&a, i), val;
    if (name.type == TPL_NULL)
      val = row;
    else if (!tpl_column_get(rt, row, name, &val))
      continue;
    tpl_value k;
    if (index.type != TPL_NULL && tpl_column_get(rt, row, index, &k) &&
        (k.type == TPL_INT || k.type == TPL_STR)) {
      tpl_map_set(rt->arena, m, k, val);
    } else {
      tpl_map_push(rt->arena, m, val);
    }
  }
  return tpl_map_or_list(rt->arena, m);
}

static tpl_value tpl_f_filter(tpl_rt *rt, tpl_ctx *ctx, int argc,
                              const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_arr a;
  tpl_need_iterable(
      rt, ARG(0), &a,
      "The \"filter\" filter expects an array or \"Traversable\", "
      "got \"%s\".",
      loc);
  tpl_work(rt, a.n, loc);
  tpl_value fn = ARG(1);
  /* Decide first, build after: when every item stays, the input is the
   * answer (array_filter keeps keys). */
  bool *keep = oc_arena_alloc(rt->arena, a.n + 1);
  size_t kept = 0;
  for (size_t i = 0; i < a.n; i++) {
    tpl_value args[2] = {tpl_arr_val(&a, i), tpl_arr_key(&a, i)};
    keep[i] =
        tpl_truthy(tpl_call_arrow(rt, fn, 2, args, "\"filter\" filter", loc));
    kept += keep[i];
  }
  if (kept == a.n && ARG(0).type != TPL_OBJ)
    return ARG(0);
  tpl_map *m = tpl_map_new(rt->arena, kept);
  for (size_t i = 0; i < a.n; i++)
    if (keep[i])
      tpl_map_append_new(rt->arena, m, tpl_arr_key(&a, i), tpl_arr_val(&a, i));
  return tpl_map_or_list(rt->arena, m);
}

static tpl_value tpl_f_map(tpl_rt *rt, tpl_ctx *ctx, int argc,
                           const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_arr a;
  if (!tpl_arr_of(rt, ARG(0), &a))
    return tpl_empty_list(rt); /* foreach over a non-array: nothing */
  tpl_work(rt, a.n, loc);
  tpl_value fn = ARG(1);
  if (a.list) {
    tpl_list *l = tpl_list_new(rt->arena, a.n);
    for (size_t i = 0; i < a.n; i++) {
      tpl_value args[2] = {a.list->items[i], tpl_int((int64_t)i)};
      l->items[i] = tpl_call_arrow(rt, fn, 2, args, "\"map\" filter", loc);
    }
    return tpl_list_value(l);
  }
  tpl_map *m = tpl_map_new(rt->arena, a.n);
  for (size_t i = 0; i < a.n; i++) {
    tpl_value args[2] = {tpl_arr_val(&a, i), tpl_arr_key(&a, i)};
    tpl_map_append_new(rt->arena, m, args[1],
                       tpl_call_arrow(rt, fn, 2, args, "\"map\" filter", loc));
  }
  return tpl_map_or_list(rt->arena, m);
}

static tpl_value tpl_f_reduce(tpl_rt *rt, tpl_ctx *ctx, int argc,
                              const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_arr a;
  tpl_need_iterable(rt, ARG(0), &a,
                    "The \"reduce\" filter only works with arrays or "
                    "\"Traversable\", got \"%s\" as first argument.",
                    loc);
  tpl_work(rt, a.n, loc);
  tpl_value acc = ARG(2);
  for (size_t i = 0; i < a.n; i++) {
    tpl_value args[3] = {acc, tpl_arr_val(&a, i), tpl_arr_key(&a, i)};
    acc = tpl_call_arrow(rt, ARG(1), 3, args, "\"reduce\" filter", loc);
  }
  return acc;
}

typedef struct tpl_sorter {
  tpl_rt *rt;
  const tpl_arr *a;
  tpl_value fn;
  const tpl_loc *loc;
} tpl_sorter;

static int tpl_sort_cmp(tpl_sorter *s, size_t i, size_t j) {
  tpl_value x = tpl_arr_val(s->a, i), y = tpl_arr_val(s->a, j);
  if (s->fn.type == TPL_NULL)
    return tpl_compare(s->rt, x, y);
  tpl_value args[2] = {x, y};
  tpl_value r =
      tpl_call_arrow(s->rt, s->fn, 2, args, "\"sort\" filter", s->loc);
  if (r.type == TPL_BOOL) {
    if (r.u.b)
      return 1;
    /* PHP retries a `false` with the operands swapped */
    tpl_value swapped[2] = {y, x};
    r = tpl_call_arrow(s->rt, s->fn, 2, swapped, "\"sort\" filter", s->loc);
    int64_t v = tpl_to_int(r);
    return v > 0 ? -1 : v < 0 ? 1 : 0;
  }
  int64_t v = tpl_to_int(r);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* Stable merge sort of indices (PHP 8's sort is stable). */
static void tpl_merge_sort(tpl_sorter *s, size_t *idx, size_t *tmp, size_t n) {
  if (n < 2)
    return;
  if (n <= 8) {
    for (size_t i = 1; i < n; i++) {
      size_t v = idx[i], j = i;
      while (j > 0 && tpl_sort_cmp(s, idx[j - 1], v) > 0) {
        idx[j] = idx[j - 1];
        j--;
      }
      idx[j] = v;
    }
    return;
  }
  size_t h = n / 2;
  tpl_merge_sort(s, idx, tmp, h);
  tpl_merge_sort(s, idx + h, tmp, n - h);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n)
    tmp[k++] = tpl_sort_cmp(s, idx[i], idx[j]) <= 0 ? idx[i++] : idx[j++];
  while (i < h)
    tmp[k++] = idx[i++];
  while (j < n)
    tmp[k++] = idx[j++];
  memcpy(idx, tmp, n * sizeof *idx);
}

static tpl_value tpl_f_sort(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_arr a;
  tpl_need_iterable(
      rt, ARG(0), &a,
      "The sort filter only works with arrays or \"Traversable\", "
      "got \"%s\".",
      loc);
  size_t *idx =
      oc_arena_alloc(rt->arena, oc_size_mul(a.n + 1, sizeof(size_t)));
  size_t *tmp =
      oc_arena_alloc(rt->arena, oc_size_mul(a.n + 1, sizeof(size_t)));
  for (size_t i = 0; i < a.n; i++)
    idx[i] = i;
  tpl_sorter s = {rt, &a, ARG(1), loc};
  tpl_work(rt, a.n, loc);
  tpl_merge_sort(&s, idx, tmp, a.n);
  tpl_map *m = tpl_map_new(rt->arena, a.n);
  for (size_t i = 0; i < a.n; i++)
    tpl_map_append_new(rt->arena, m, tpl_arr_key(&a, idx[i]),
                       tpl_arr_val(&a, idx[i]));
  return tpl_map_or_list(rt->arena, m);
}

/* ---- the table ------------------------------------------------------ */

#define SAFE_HTML (1u << TPL_ESC_HTML)

/* Parameter names are Twig's (the PHP parameter names in snake_case), so
 * named arguments map as in Twig. `escape`'s safety depends on its strategy
 * argument (Twig's is_safe_callback): the checker decides it; the flag here
 * is the one for the default strategy, html. */
static const tpl_callable tpl_filters[] = {
    {"abs", tpl_f_abs, "", 0, 0, 0, 0},
    {"batch", tpl_f_batch, "size,fill,preserve_keys", 1, 0, 0, 0},
    {"capitalize", tpl_f_capitalize, "", 0, 0, 0, 0},
    {"column", tpl_f_column, "name,index", 1, 0, 0, 0},
    {"date", tpl_date_filter, "format,timezone", 0, 0, 0, 0},
    {"date_modify", tpl_date_modify_filter, "modifier", 1, 0, 0, 0},
    {"default", tpl_f_default, "default", 0, 0, 0, 0},
    {"e", tpl_f_escape, "strategy,charset,autoescape", 0, 0, SAFE_HTML, 0},
    {"escape", tpl_f_escape, "strategy,charset,autoescape", 0, 0, SAFE_HTML, 0},
    {"filter", tpl_f_filter, "arrow", 1, 0, 0, 0},
    {"first", tpl_f_first, "", 0, 0, 0, 0},
    {"format", tpl_f_format, "values", 0, TPL_CALL_VARIADIC, 0, 0},
    {"join", tpl_f_join, "glue,and", 0, 0, 0, 0},
    {"json_encode", tpl_f_json_encode, "flags,depth", 0, 0, 0, 0},
    {"keys", tpl_f_keys, "", 0, 0, 0, 0},
    {"last", tpl_f_last, "", 0, 0, 0, 0},
    {"length", tpl_f_length, "", 0, 0, 0, 0},
    {"lower", tpl_f_lower, "", 0, 0, 0, 0},
    {"map", tpl_f_map, "arrow", 1, 0, 0, 0},
    {"merge", tpl_f_merge, "arr2", 1, 0, 0, 0},
    {"nl2br", tpl_f_nl2br, "", 0, 0, SAFE_HTML, TPL_ESC_HTML},
    {"number_format", tpl_f_number_format, "decimal,decimal_point,thousand_sep",
     0, 0, 0, 0},
    {"raw", tpl_f_raw, "", 0, 0, TPL_SAFE_ALL, 0},
    {"reduce", tpl_f_reduce, "arrow,initial", 1, 0, 0, 0},
    {"replace", tpl_f_replace, "from", 1, 0, 0, 0},
    {"reverse", tpl_f_reverse, "preserve_keys", 0, 0, 0, 0},
    {"round", tpl_f_round, "precision,method", 0, 0, 0, 0},
    {"slice", tpl_f_slice, "start,length,preserve_keys", 1, 0, 0, 0},
    {"sort", tpl_f_sort, "arrow", 0, 0, 0, 0},
    {"spaceless", tpl_f_spaceless, "", 0, 0, SAFE_HTML, TPL_ESC_HTML},
    {"split", tpl_f_split, "delimiter,limit", 1, 0, 0, 0},
    {"striptags", tpl_f_striptags, "allowable_tags", 0, 0, 0, 0},
    {"title", tpl_f_title, "", 0, 0, 0, 0},
    {"trim", tpl_f_trim, "character_mask,side", 0, 0, 0, 0},
    {"upper", tpl_f_upper, "", 0, 0, 0, 0},
    {"url_encode", tpl_f_url_encode, "", 0, 0, 0, 0},
};

const tpl_callable *tpl_find_filter(const char *name, size_t len) {
  for (size_t i = 0; i < TPL_COUNT(tpl_filters); i++)
    if (strlen(tpl_filters[i].name) == len &&
        memcmp(tpl_filters[i].name, name, len) == 0)
      return &tpl_filters[i];
  return NULL;
}
