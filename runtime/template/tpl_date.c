/* Dates for the date filter, date_modify and date(): a small DateTime
 * (timestamp + time zone), PHP's date() format letters, the common forms
 * of strtotime() input, and time zones read from the system's TZif files
 * (/usr/share/zoneinfo) by a reader of our own, so no process-wide TZ
 * state is touched. Limits: no DateInterval, and only the usual
 * strtotime() forms (ISO dates and times, US and European numeric dates,
 * month names, "@ts", now/today/tomorrow/yesterday/midnight/noon,
 * "+N unit", "next/last unit", weekdays, "first/last day of"). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "oc_file.h"
#include "tpl_lib.h"

#define ARG(i) ((i) < argc ? argv[(i)] : tpl_null())
#define HAS(i) ((i) < argc && argv[(i)].type != TPL_NULL)

/* ---- calendar arithmetic -------------------------------------------- */

static int64_t tpl_floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}

/* Days since 1970-01-01 of a proleptic Gregorian date; d may overflow the
 * month (Feb 31 is Mar 2 or 3), as PHP normalises. */
static int64_t tpl_days_from_civil(int64_t y, int64_t m, int64_t d) {
  y += tpl_floor_div(m - 1, 12);
  m = m - 1 - tpl_floor_div(m - 1, 12) * 12 + 1;
  int64_t yy = m <= 2 ? y - 1 : y;
  int64_t era = tpl_floor_div(yy, 400);
  int64_t yoe = yy - era * 400;
  int64_t mp = m > 2 ? m - 3 : m + 9;
  int64_t doy = (153 * mp + 2) / 5;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468 + (d - 1);
}

static void tpl_civil_from_days(int64_t z, int64_t *y, int *m, int *d) {
  z += 719468;
  int64_t era = tpl_floor_div(z, 146097);
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

static bool tpl_leap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int tpl_month_days(int64_t y, int m) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && tpl_leap(y) ? 29 : days[m - 1];
}

/* 0 = Sunday */
static int tpl_weekday(int64_t days) { return (int)(((days % 7) + 11) % 7); }

/* ---- time zones ----------------------------------------------------- */

enum { TPL_TZ_UTC, TPL_TZ_OFFSET, TPL_TZ_FILE };

typedef struct tpl_tz_type {
  int32_t off;
  bool dst;
  const char *abbr;
} tpl_tz_type;

/* One end of a POSIX TZ rule: Mm.w.d, Jn or n, at `time` seconds. */
typedef struct tpl_tz_when {
  char kind; /* 'M', 'J', 'n' */
  int m, w, d;
  int32_t time;
} tpl_tz_when;

typedef struct tpl_tz_rule {
  bool valid, has_dst;
  tpl_tz_type std, dst;
  tpl_tz_when start, end;
} tpl_tz_rule;

typedef struct tpl_tz {
  const struct tpl_tz *next; /* the render's cache */
  const char *name;
  int kind;
  int32_t offset; /* TPL_TZ_OFFSET */
  size_t ntrans, ntypes;
  const int64_t *trans;
  const uint8_t *idx;
  const tpl_tz_type *types;
  tpl_tz_rule rule;
} tpl_tz;

static const tpl_tz tpl_tz_utc = {NULL, "UTC", TPL_TZ_UTC, 0,    0,
                                  0,    NULL,  NULL,       NULL, {0}};
/* Zones named by an abbreviation in a date string ("... GMT", "...Z") */
static const tpl_tz tpl_tz_gmt = {NULL, "GMT", TPL_TZ_UTC, 0,    0,
                                  0,    NULL,  NULL,       NULL, {0}};
static const tpl_tz tpl_tz_z = {NULL, "Z",  TPL_TZ_UTC, 0,    0,
                                0,    NULL, NULL,       NULL, {0}};

static bool tpl_tz_parse_name(const char **p, const char *end, char *out,
                              size_t cap) {
  size_t n = 0;
  if (*p < end && **p == '<') {
    (*p)++;
    while (*p < end && **p != '>') {
      if (n + 1 < cap)
        out[n++] = **p;
      (*p)++;
    }
    if (*p >= end)
      return false;
    (*p)++;
  } else {
    while (*p < end &&
           ((**p >= 'A' && **p <= 'Z') || (**p >= 'a' && **p <= 'z'))) {
      if (n + 1 < cap)
        out[n++] = **p;
      (*p)++;
    }
  }
  out[n] = '\0';
  return n >= 3 || (n > 0 && out[0] != '\0');
}

/* [+-]hh[:mm[:ss]] in seconds */
static bool tpl_tz_parse_time(const char **p, const char *end, int32_t *out) {
  int sign = 1;
  if (*p < end && (**p == '+' || **p == '-')) {
    sign = **p == '-' ? -1 : 1;
    (*p)++;
  }
  int32_t parts[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++) {
    if (*p >= end || **p < '0' || **p > '9')
      return i > 0;
    int v = 0;
    while (*p < end && **p >= '0' && **p <= '9')
      v = v * 10 + (*(*p)++ - '0');
    parts[i] = v;
    if (i < 2 && *p < end && **p == ':')
      (*p)++;
    else
      break;
  }
  *out = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
  return true;
}

static bool tpl_tz_parse_when(const char **p, const char *end, tpl_tz_when *w) {
  w->time = 7200;
  if (*p >= end)
    return false;
  if (**p == 'M') {
    (*p)++;
    int v[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
      while (*p < end && **p >= '0' && **p <= '9')
        v[i] = v[i] * 10 + (*(*p)++ - '0');
      if (i < 2) {
        if (*p >= end || **p != '.')
          return false;
        (*p)++;
      }
    }
    w->kind = 'M';
    w->m = v[0];
    w->w = v[1];
    w->d = v[2];
  } else {
    w->kind = 'n';
    if (**p == 'J') {
      w->kind = 'J';
      (*p)++;
    }
    int v = 0;
    while (*p < end && **p >= '0' && **p <= '9')
      v = v * 10 + (*(*p)++ - '0');
    w->d = v;
  }
  if (*p < end && **p == '/') {
    (*p)++;
    if (!tpl_tz_parse_time(p, end, &w->time))
      return false;
  }
  return true;
}

static bool tpl_tz_parse_rule(oc_arena *a, const char *s, size_t len,
                              tpl_tz_rule *r) {
  const char *p = s, *end = s + len;
  char name[32];
  int32_t t;
  memset(r, 0, sizeof *r);
  if (!tpl_tz_parse_name(&p, end, name, sizeof name) ||
      !tpl_tz_parse_time(&p, end, &t))
    return false;
  r->std.off = -t;
  r->std.abbr = oc_arena_strndup(a, name, strlen(name));
  if (p < end) {
    if (!tpl_tz_parse_name(&p, end, name, sizeof name))
      return false;
    r->has_dst = true;
    r->dst.dst = true;
    r->dst.abbr = oc_arena_strndup(a, name, strlen(name));
    r->dst.off = r->std.off + 3600;
    if (p < end && *p != ',') {
      if (!tpl_tz_parse_time(&p, end, &t))
        return false;
      r->dst.off = -t;
    }
    if (p >= end || *p != ',')
      return false;
    p++;
    if (!tpl_tz_parse_when(&p, end, &r->start) || p >= end || *p != ',')
      return false;
    p++;
    if (!tpl_tz_parse_when(&p, end, &r->end))
      return false;
  }
  r->valid = true;
  return true;
}

/* Seconds since the epoch, in local standard time of year y, of a rule's
 * transition day at 00:00 plus its time. */
static int64_t tpl_tz_when_local(const tpl_tz_when *w, int64_t y) {
  int64_t day;
  if (w->kind == 'M') {
    int64_t first = tpl_days_from_civil(y, w->m, 1);
    int wd = tpl_weekday(first);
    int64_t d = first + (w->d - wd + 7) % 7 + (int64_t)(w->w - 1) * 7;
    if (w->w == 5)
      while (d >= first + tpl_month_days(y, w->m))
        d -= 7;
    day = d;
  } else if (w->kind == 'J') {
    /* 1..365, February 29 never counted */
    int64_t n = w->d;
    day = tpl_days_from_civil(y, 1, 1) + n - 1;
    if (tpl_leap(y) && n >= 60)
      day++;
  } else {
    day = tpl_days_from_civil(y, 1, 1) + w->d;
  }
  return day * 86400 + w->time;
}

static tpl_tz_type tpl_tz_rule_at(const tpl_tz_rule *r, int64_t t) {
  if (!r->has_dst)
    return r->std;
  int64_t y;
  int m, d;
  tpl_civil_from_days(tpl_floor_div(t + r->std.off, 86400), &y, &m, &d);
  /* start is given in standard time, end in daylight time */
  int64_t start = tpl_tz_when_local(&r->start, y) - r->std.off;
  int64_t end = tpl_tz_when_local(&r->end, y) - r->dst.off;
  bool in_dst =
      start < end ? (t >= start && t < end) : !(t >= end && t < start);
  return in_dst ? r->dst : r->std;
}

static tpl_tz_type tpl_tz_at(const tpl_tz *tz, int64_t t) {
  tpl_tz_type ty = {0, false, tz->name};
  if (tz->kind == TPL_TZ_UTC)
    return ty; /* UTC, or an abbreviation zone like GMT */
  if (tz->kind == TPL_TZ_OFFSET) {
    ty.off = tz->offset;
    ty.abbr = NULL;
    return ty;
  }
  if (tz->ntrans == 0 || t < tz->trans[0]) {
    if (tz->ntrans == 0 && tz->rule.valid)
      return tpl_tz_rule_at(&tz->rule, t);
    /* before the first transition: the first standard-time type */
    for (size_t i = 0; i < tz->ntypes; i++)
      if (!tz->types[i].dst)
        return tz->types[i];
    return tz->ntypes ? tz->types[0] : ty;
  }
  if (t >= tz->trans[tz->ntrans - 1] && tz->rule.valid)
    return tpl_tz_rule_at(&tz->rule, t);
  size_t lo = 0, hi = tz->ntrans;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (tz->trans[mid] <= t)
      lo = mid;
    else
      hi = mid;
  }
  return tz->types[tz->idx[lo]];
}

static uint32_t tpl_be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         p[3];
}

static int64_t tpl_be64(const unsigned char *p) {
  return (int64_t)((uint64_t)tpl_be32(p) << 32 | tpl_be32(p + 4));
}

/* Parses a TZif file (RFC 8536); version 2+ data when present. */
static bool tpl_tzif_parse(oc_arena *a, const unsigned char *buf, size_t len,
                           tpl_tz *tz) {
  if (len < 44 || memcmp(buf, "TZif", 4) != 0)
    return false;
  int version = buf[4];
  const unsigned char *h = buf;
  size_t tsize = 4;
  for (int pass = 0; pass < 2; pass++) {
    if ((size_t)(h - buf) + 44 > len)
      return false;
    uint32_t isutcnt = tpl_be32(h + 20), isstdcnt = tpl_be32(h + 24),
             leapcnt = tpl_be32(h + 28), timecnt = tpl_be32(h + 32),
             typecnt = tpl_be32(h + 36), charcnt = tpl_be32(h + 40);
    if (timecnt > 100000 || typecnt > 256 || typecnt == 0 || charcnt > 100000 ||
        leapcnt > 100000 || isutcnt > 256 || isstdcnt > 256)
      return false;
    size_t body = timecnt * tsize + timecnt + typecnt * 6 + charcnt +
                  leapcnt * (tsize + 4) + isstdcnt + isutcnt;
    const unsigned char *d = h + 44;
    if ((size_t)(d - buf) + body > len)
      return false;
    if (pass == 0 && version >= '2') {
      h = d + body; /* skip the 32-bit data */
      tsize = 8;
      continue;
    }
    int64_t *trans = oc_arena_alloc(a, (timecnt + 1) * sizeof(int64_t));
    uint8_t *idx = oc_arena_alloc(a, timecnt + 1);
    tpl_tz_type *types = oc_arena_alloc(a, typecnt * sizeof(tpl_tz_type));
    for (uint32_t i = 0; i < timecnt; i++)
      trans[i] =
          tsize == 8 ? tpl_be64(d + i * 8) : (int32_t)tpl_be32(d + i * 4);
    d += timecnt * tsize;
    for (uint32_t i = 0; i < timecnt; i++) {
      idx[i] = d[i];
      if (idx[i] >= typecnt)
        return false;
    }
    d += timecnt;
    const unsigned char *tt = d;
    d += typecnt * 6;
    const char *chars = oc_arena_strndup(a, (const char *)d, charcnt);
    for (uint32_t i = 0; i < typecnt; i++) {
      types[i].off = (int32_t)tpl_be32(tt + i * 6);
      types[i].dst = tt[i * 6 + 4] != 0;
      uint8_t ai = tt[i * 6 + 5];
      types[i].abbr = ai < charcnt ? chars + ai : "";
    }
    d += charcnt + leapcnt * (tsize + 4) + isstdcnt + isutcnt;
    tz->kind = TPL_TZ_FILE;
    tz->trans = trans;
    tz->idx = idx;
    tz->ntrans = timecnt;
    tz->types = types;
    tz->ntypes = typecnt;
    if (tsize == 8 && (size_t)(d - buf) < len && *d == '\n') {
      const char *f = (const char *)d + 1;
      const char *nl = memchr(f, '\n', len - (size_t)(d + 1 - buf));
      if (nl && nl > f)
        tpl_tz_parse_rule(a, f, (size_t)(nl - f), &tz->rule);
    }
    return true;
  }
  return false;
}

static bool tpl_tz_name_ok(const char *s, size_t len) {
  if (len == 0 || len > 100 || s[0] == '/' || s[0] == '.')
    return false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
          (c >= '0' && c <= '9') || c == '/' || c == '_' || c == '-' ||
          c == '+'))
      return false;
    if (c == '/' && i + 1 < len && s[i + 1] == '.')
      return false;
  }
  return true;
}

/* "+02:00", "-0530", "+5" */
static bool tpl_tz_offset_name(const char *s, size_t len, int32_t *off) {
  if (len < 2 || (s[0] != '+' && s[0] != '-'))
    return false;
  int digits[4], n = 0;
  for (size_t i = 1; i < len; i++) {
    if (s[i] == ':' && i == 3)
      continue;
    if (s[i] < '0' || s[i] > '9' || n == 4)
      return false;
    digits[n++] = s[i] - '0';
  }
  int h, m = 0;
  if (n == 1)
    h = digits[0];
  else if (n == 2)
    h = digits[0] * 10 + digits[1];
  else if (n == 3) {
    h = digits[0];
    m = digits[1] * 10 + digits[2];
  } else if (n == 4) {
    h = digits[0] * 10 + digits[1];
    m = digits[2] * 10 + digits[3];
  } else
    return false;
  if (h > 99 || m > 59)
    return false;
  *off = (s[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
  return true;
}

static const tpl_tz *tpl_tz_offset(tpl_rt *rt, int32_t off) {
  tpl_tz *tz = oc_arena_calloc(rt->arena, 1, sizeof *tz);
  int32_t a = off < 0 ? -off : off;
  char name[16];
  snprintf(name, sizeof name, "%c%02d:%02d", off < 0 ? '-' : '+',
           (int)(a / 3600), (int)(a / 60 % 60));
  tz->name = oc_arena_strndup(rt->arena, name, strlen(name));
  tz->kind = TPL_TZ_OFFSET;
  tz->offset = off;
  return tz;
}

/* A time zone by name (PHP's DateTimeZone): NULL when unknown. */
static const tpl_tz *tpl_tz_find(tpl_rt *rt, const char *s, size_t len) {
  if ((len == 3 && (memcmp(s, "UTC", 3) == 0 || memcmp(s, "utc", 3) == 0)))
    return &tpl_tz_utc;
  int32_t off;
  if (tpl_tz_offset_name(s, len, &off))
    return tpl_tz_offset(rt, off);
  tpl_lib_state *lib = tpl_lib(rt);
  for (const tpl_tz *z = lib->zones; z; z = z->next)
    if (strlen(z->name) == len && memcmp(z->name, s, len) == 0)
      return z;
  if (!tpl_tz_name_ok(s, len))
    return NULL;
  char path[160];
  snprintf(path, sizeof path, "/usr/share/zoneinfo/%.*s", (int)len, s);
  FILE *f = oc_fopen_regular(path);
  if (!f)
    return NULL;
  /* zoneinfo files are small; read one whole */
  unsigned char *buf = oc_malloc(1 << 16);
  size_t n = fread(buf, 1, 1 << 16, f);
  fclose(f);
  tpl_tz *tz = oc_arena_calloc(rt->arena, 1, sizeof *tz);
  bool ok = tpl_tzif_parse(rt->arena, buf, n, tz);
  free(buf);
  if (!ok)
    return NULL;
  tz->name = oc_arena_strndup(rt->arena, s, len);
  tz->next = lib->zones;
  lib->zones = tz;
  return tz;
}

static const tpl_tz *tpl_tz_value(tpl_rt *rt, tpl_value v, const tpl_loc *loc) {
  tpl_value s = tpl_to_str(rt, v);
  const tpl_tz *tz = tpl_tz_find(rt, s.u.s, s.len);
  if (!tz)
    tpl_fail(rt, loc,
             "DateTimeZone::__construct(): Unknown or bad timezone (%.*s)",
             (int)(s.len > 100 ? 100 : s.len), s.u.s);
  return tz;
}

/* Local wall time → timestamp; in a DST gap the later offset wins. */
static int64_t tpl_tz_local_to_utc(const tpl_tz *tz, int64_t local) {
  int32_t off1 = tpl_tz_at(tz, local).off;
  int32_t off2 = tpl_tz_at(tz, local - off1).off;
  if (off1 == off2)
    return local - off1;
  int32_t off3 = tpl_tz_at(tz, local - off2).off;
  if (off3 == off2)
    return local - off2;
  return local - (off1 > off2 ? off2 : off1);
}

/* ---- the DateTime object -------------------------------------------- */

static bool tpl_date_attr(tpl_rt *rt, tpl_obj *self, const char *name,
                          size_t len, tpl_value *out) {
  (void)rt;
  const tpl_date *d = self->data;
  if ((len == 9 && memcmp(name, "timestamp", 9) == 0) ||
      (len == 12 && memcmp(name, "getTimestamp", 12) == 0)) {
    *out = tpl_int(d->ts);
    return true;
  }
  if ((len == 6 && memcmp(name, "offset", 6) == 0) ||
      (len == 9 && memcmp(name, "getOffset", 9) == 0)) {
    *out = tpl_int(tpl_tz_at(d->tz, d->ts).off);
    return true;
  }
  return false;
}

/* Dates order by their instant, whatever their zones. */
static int tpl_date_compare(tpl_rt *rt, const tpl_obj *a, const tpl_obj *b) {
  (void)rt;
  const tpl_date *x = a->data, *y = b->data;
  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->usec < y->usec ? -1 : x->usec > y->usec;
}

const tpl_obj_class tpl_date_class = {
    .name = "DateTime", .get_attr = tpl_date_attr, .compare = tpl_date_compare};

static tpl_value tpl_date_new(tpl_rt *rt, int64_t ts, int32_t usec,
                              const tpl_tz *tz) {
  tpl_date *d = oc_arena_alloc(rt->arena, sizeof *d);
  d->ts = ts;
  d->usec = usec;
  d->tz = tz;
  return tpl_obj_value(rt->arena, &tpl_date_class, d);
}

int64_t tpl_now(tpl_rt *rt) {
  if (rt->now_set)
    return rt->now;
  tpl_lib_state *lib = tpl_lib(rt);
  if (!lib->clock_read) {
    lib->clock = (int64_t)time(NULL);
    lib->clock_read = true;
  }
  return lib->clock;
}

/* ---- parsing date strings ------------------------------------------- */

/* Timestamps within about ±30 million years: enough for any date, and far
 * from int64 overflow in the arithmetic below. */
#define TPL_TS_MAX 1000000000000000ll

typedef struct tpl_when {
  bool have_date, have_time, have_zone, have_ts, reset_time;
  int64_t y;
  int m, d;
  int h, i, s, us;
  int64_t ts; /* "@ts" */
  const tpl_tz *zone;
  /* relative parts */
  int64_t ry, rm, rd, rh, ri, rs;
  int weekday;     /* -1 none, else 0..6 (Sunday 0) */
  int weekday_rel; /* 0 this/plain, 1 next, -1 last */
  int first_last;  /* 0, 1 first day of, 2 last day of */
} tpl_when;

static const char *const tpl_month_names[] = {
    "january", "february", "march",     "april",   "may",      "june",
    "july",    "august",   "september", "october", "november", "december"};
static const char *const tpl_day_names[] = {"sunday",    "monday",   "tuesday",
                                            "wednesday", "thursday", "friday",
                                            "saturday"};

typedef struct tpl_scan {
  const char *s; /* lowercased copy */
  const char *orig;
  size_t len, pos;
} tpl_scan;

static bool tpl_sc_digit(const tpl_scan *c, size_t at) {
  return at < c->len && c->s[at] >= '0' && c->s[at] <= '9';
}

static bool tpl_sc_alpha(const tpl_scan *c, size_t at) {
  return at < c->len && c->s[at] >= 'a' && c->s[at] <= 'z';
}

/* Reads up to max digits at pos; returns how many. */
static int tpl_sc_num(tpl_scan *c, int max, int64_t *out) {
  int n = 0;
  int64_t v = 0;
  while (n < max && tpl_sc_digit(c, c->pos)) {
    v = v * 10 + (c->s[c->pos++] - '0');
    n++;
  }
  *out = v;
  return n;
}

static size_t tpl_sc_word(const tpl_scan *c, size_t at) {
  size_t e = at;
  while (tpl_sc_alpha(c, e))
    e++;
  return e - at;
}

static int tpl_match_month(const char *w, size_t n) {
  for (int i = 0; i < 12; i++) {
    size_t full = strlen(tpl_month_names[i]);
    if ((n == full || n == 3 || (i == 8 && n == 4)) && n <= full &&
        memcmp(w, tpl_month_names[i], n) == 0)
      return i + 1;
  }
  return 0;
}

static int tpl_match_day(const char *w, size_t n) {
  for (int i = 0; i < 7; i++) {
    size_t full = strlen(tpl_day_names[i]);
    if ((n == full || n == 3) && memcmp(w, tpl_day_names[i], n) == 0)
      return i;
  }
  if (n == 4 && memcmp(w, "tues", 4) == 0)
    return 2;
  if (n == 5 && memcmp(w, "wednes", 5) == 0)
    return 3;
  if ((n == 4 && memcmp(w, "thur", 4) == 0) ||
      (n == 5 && memcmp(w, "thurs", 5) == 0))
    return 4;
  return -1;
}

/* Unit names of relative times; returns a code or 0. */
enum { U_SEC = 1, U_MIN, U_HOUR, U_DAY, U_WEEK, U_FORTNIGHT, U_MONTH, U_YEAR };

static int tpl_match_unit(const char *w, size_t n) {
  static const struct {
    const char *name;
    int unit;
  } units[] = {{"sec", U_SEC},
               {"secs", U_SEC},
               {"second", U_SEC},
               {"seconds", U_SEC},
               {"min", U_MIN},
               {"mins", U_MIN},
               {"minute", U_MIN},
               {"minutes", U_MIN},
               {"hour", U_HOUR},
               {"hours", U_HOUR},
               {"day", U_DAY},
               {"days", U_DAY},
               {"week", U_WEEK},
               {"weeks", U_WEEK},
               {"fortnight", U_FORTNIGHT},
               {"fortnights", U_FORTNIGHT},
               {"forthnight", U_FORTNIGHT},
               {"month", U_MONTH},
               {"months", U_MONTH},
               {"year", U_YEAR},
               {"years", U_YEAR}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strlen(units[i].name) == n && memcmp(units[i].name, w, n) == 0)
      return units[i].unit;
  return 0;
}

/* Relative amounts are bounded so that no later step can overflow. */
#define TPL_REL_MAX 100000000000ll

static void tpl_add_rel(tpl_when *w, int unit, int64_t n) {
  if (n > TPL_REL_MAX)
    n = TPL_REL_MAX;
  if (n < -TPL_REL_MAX)
    n = -TPL_REL_MAX;
  switch (unit) {
  case U_SEC:
    w->rs += n;
    break;
  case U_MIN:
    w->ri += n;
    break;
  case U_HOUR:
    w->rh += n;
    break;
  case U_DAY:
    w->rd += n;
    break;
  case U_WEEK:
    w->rd += 7 * n;
    break;
  case U_FORTNIGHT:
    w->rd += 14 * n;
    break;
  case U_MONTH:
    w->rm += n;
    break;
  case U_YEAR:
    w->ry += n;
    break;
  }
}

/* A year of four digits after the day and month ("5 March 2024", "March 5,
   2024"), past any of seps; not the hour of a time ("March 5 10:00"). On a
   year, *y is set and the scan moves past it; otherwise it stays. */
static bool tpl_sc_year_after(tpl_scan *c, const char *seps, int64_t *y) {
  size_t y0 = c->pos;
  while (y0 < c->len && c->s[y0] && strchr(seps, c->s[y0]))
    y0++;
  size_t ye = y0;
  while (tpl_sc_digit(c, ye))
    ye++;
  if (ye - y0 != 4 || (ye < c->len && c->s[ye] == ':'))
    return false;
  c->pos = y0;
  tpl_sc_num(c, 4, y);
  return true;
}

static void tpl_sc_skip_ws(tpl_scan *c) {
  while (c->pos < c->len && (c->s[c->pos] == ' ' || c->s[c->pos] == '\t' ||
                             c->s[c->pos] == ',' || c->s[c->pos] == '\n'))
    c->pos++;
}

/* HH:MM[:SS[.frac]] [am|pm], at pos (which is a digit). */
static bool tpl_sc_time(tpl_scan *c, tpl_when *w) {
  size_t save = c->pos;
  int64_t h, i, s = 0;
  if (!tpl_sc_num(c, 2, &h) || c->pos >= c->len ||
      (c->s[c->pos] != ':' && c->s[c->pos] != '.')) {
    c->pos = save;
    return false;
  }
  c->pos++;
  if (tpl_sc_num(c, 2, &i) != 2) {
    c->pos = save;
    return false;
  }
  int us = 0;
  if (c->pos < c->len && c->s[c->pos] == ':' && tpl_sc_digit(c, c->pos + 1)) {
    c->pos++;
    tpl_sc_num(c, 2, &s);
    if (c->pos < c->len && (c->s[c->pos] == '.' || c->s[c->pos] == ',') &&
        tpl_sc_digit(c, c->pos + 1)) {
      c->pos++;
      int n = 0;
      while (tpl_sc_digit(c, c->pos)) {
        if (n < 6) {
          us = us * 10 + (c->s[c->pos] - '0');
          n++;
        }
        c->pos++;
      }
      while (n++ < 6)
        us *= 10;
    }
  }
  size_t p = c->pos;
  while (p < c->len && c->s[p] == ' ')
    p++;
  if (p + 1 < c->len && (c->s[p] == 'a' || c->s[p] == 'p') &&
      (c->s[p + 1] == 'm' ||
       (c->s[p + 1] == '.' && p + 2 < c->len && c->s[p + 2] == 'm')) &&
      !tpl_sc_alpha(c, p + (c->s[p + 1] == '.' ? 3 : 2)) && h >= 1 && h <= 12) {
    bool pm = c->s[p] == 'p';
    h = h % 12 + (pm ? 12 : 0);
    c->pos = p + (c->s[p + 1] == '.' ? 3 : 2);
    if (c->pos < c->len && c->s[c->pos] == '.')
      c->pos++;
  }
  if (h > 23 || i > 59 || s > 60) {
    c->pos = save;
    return false;
  }
  w->have_time = true;
  w->h = (int)h;
  w->i = (int)i;
  w->s = (int)s;
  w->us = us;
  return true;
}

/* An ISO date just read (2024-03-05 or 20240305), and the time that may
 * follow it after a 'T' (the text is lower-cased by then). */
static bool tpl_sc_iso_date(tpl_scan *c, tpl_when *w, int64_t y, int64_t m,
                            int64_t d) {
  w->have_date = true;
  w->y = y;
  w->m = (int)m;
  w->d = (int)d;
  if (c->pos < c->len && c->s[c->pos] == 't' && tpl_sc_digit(c, c->pos + 1)) {
    c->pos++;
    return tpl_sc_time(c, w);
  }
  return true;
}

/* Zone suffixes: Z, UTC/GMT, +hh[:mm], or a tz database name. */
static bool tpl_sc_zone(tpl_rt *rt, tpl_scan *c, tpl_when *w) {
  size_t p = c->pos;
  if (p < c->len && (c->s[p] == '+' || c->s[p] == '-') &&
      tpl_sc_digit(c, p + 1)) {
    size_t e = p + 1;
    while (e < c->len && (tpl_sc_digit(c, e) || c->s[e] == ':'))
      e++;
    int32_t off;
    if (!tpl_tz_offset_name(c->orig + p, e - p, &off))
      return false;
    w->zone = tpl_tz_offset(rt, off);
    w->have_zone = true;
    c->pos = e;
    return true;
  }
  size_t n = tpl_sc_word(c, p);
  if (n == 1 && c->s[p] == 'z') {
    w->zone = &tpl_tz_z;
    w->have_zone = true;
    c->pos = p + 1;
    return true;
  }
  if (n == 3 &&
      (memcmp(c->s + p, "utc", 3) == 0 || memcmp(c->s + p, "gmt", 3) == 0)) {
    c->pos = p + 3;
    w->zone = c->s[p] == 'u' ? &tpl_tz_utc : &tpl_tz_gmt;
    w->have_zone = true;
    if (c->pos < c->len && (c->s[c->pos] == '+' || c->s[c->pos] == '-'))
      tpl_sc_zone(rt, c, w); /* "GMT+2" */
    return true;
  }
  if (n && p + n < c->len && c->s[p + n] == '/') {
    size_t e = p;
    while (e < c->len && c->s[e] != ' ' && c->s[e] != ',')
      e++;
    const tpl_tz *tz = tpl_tz_find(rt, c->orig + p, e - p);
    if (!tz)
      return false;
    w->zone = tz;
    w->have_zone = true;
    c->pos = e;
    return true;
  }
  return false;
}

static bool tpl_parse_date_1(tpl_rt *rt, const char *str, size_t len,
                             tpl_when *w);

static bool tpl_parse_date(tpl_rt *rt, const char *str, size_t len,
                           tpl_when *w) {
  if (!tpl_parse_date_1(rt, str, len, w))
    return false;
  /* years beyond a few million and overflowing sums are not dates */
  int64_t lim = TPL_REL_MAX;
  return w->ry > -10000000 && w->ry < 10000000 && w->rm > -lim && w->rm < lim &&
         w->rd > -lim && w->rd < lim && w->rh > -lim && w->rh < lim &&
         w->ri > -lim && w->ri < lim && w->rs > -lim && w->rs < lim &&
         (!w->have_ts || (w->ts > -TPL_TS_MAX && w->ts < TPL_TS_MAX));
}

static bool tpl_parse_date_1(tpl_rt *rt, const char *str, size_t len,
                             tpl_when *w) {
  char *low = oc_arena_alloc(rt->arena, len + 1);
  for (size_t i = 0; i < len; i++)
    low[i] = (char)(str[i] >= 'A' && str[i] <= 'Z' ? str[i] + 32 : str[i]);
  low[len] = '\0';
  tpl_scan c = {low, str, len, 0};
  memset(w, 0, sizeof *w);
  w->weekday = -1;
  while (true) {
    tpl_sc_skip_ws(&c);
    if (c.pos >= c.len)
      break;
    size_t p = c.pos;
    char ch = c.s[p];
    if (ch == '@') {
      c.pos++;
      bool neg = false;
      if (c.pos < c.len && (c.s[c.pos] == '-' || c.s[c.pos] == '+'))
        neg = c.s[c.pos++] == '-';
      int64_t v;
      if (!tpl_sc_num(&c, 19, &v))
        return false;
      if (c.pos < c.len && c.s[c.pos] == '.') {
        c.pos++;
        int64_t frac;
        int n = tpl_sc_num(&c, 6, &frac);
        while (n++ < 6)
          frac *= 10;
        w->us = (int)frac;
        while (tpl_sc_digit(&c, c.pos))
          c.pos++;
      }
      w->have_ts = true;
      w->ts = neg ? -v : v;
      w->zone = tpl_tz_offset(rt, 0);
      w->have_zone = true;
      continue;
    }
    if (ch >= '0' && ch <= '9') {
      /* dates: 2024-03-05, 2024/03/05, 03/05/2024, 05-03-2024, 05.03.2024 */
      size_t e = p;
      while (tpl_sc_digit(&c, e))
        e++;
      size_t nd = e - p;
      char sep = e < c.len ? c.s[e] : 0;
      int64_t a, b, y;
      if (nd == 4 && (sep == '-' || sep == '/') && tpl_sc_digit(&c, e + 1)) {
        tpl_sc_num(&c, 4, &y);
        c.pos++;
        if (!tpl_sc_num(&c, 2, &a))
          return false;
        if (c.pos >= c.len || c.s[c.pos] != sep)
          return false;
        c.pos++;
        if (!tpl_sc_num(&c, 2, &b))
          return false;
        if (a < 1 || a > 12 || b < 0 || b > 31)
          return false;
        if (!tpl_sc_iso_date(&c, w, y, a, b))
          return false;
        continue;
      }
      if (nd == 8 && sep != ':' && !tpl_sc_alpha(&c, e)) {
        tpl_sc_num(&c, 4, &y);
        tpl_sc_num(&c, 2, &a);
        tpl_sc_num(&c, 2, &b);
        if (a < 1 || a > 12 || b > 31)
          return false;
        if (!tpl_sc_iso_date(&c, w, y, a, b))
          return false;
        continue;
      }
      if (nd <= 2 && (sep == '/' || sep == '-' || sep == '.') &&
          tpl_sc_digit(&c, e + 1)) {
        size_t e2 = e + 1;
        while (tpl_sc_digit(&c, e2))
          e2++;
        if (e2 < c.len && c.s[e2] == sep && tpl_sc_digit(&c, e2 + 1)) {
          tpl_sc_num(&c, 2, &a);
          c.pos++;
          tpl_sc_num(&c, 2, &b);
          c.pos++;
          int ny = tpl_sc_num(&c, 4, &y);
          if (ny == 2)
            y += y < 70 ? 2000 : 1900;
          if (sep == '/') { /* American m/d/y */
            int64_t t = a;
            a = b;
            b = t;
          }
          /* now a = day, b = month */
          if (b < 1 || b > 12 || a > 31)
            return false;
          w->have_date = true;
          w->y = y;
          w->m = (int)b;
          w->d = (int)a;
          continue;
        }
      }
      if (nd <= 2 && (sep == ':' ||
                      (sep == '.' && tpl_sc_digit(&c, e + 1) &&
                       tpl_sc_digit(&c, e + 2) && !tpl_sc_digit(&c, e + 3)))) {
        if (!tpl_sc_time(&c, w))
          return false;
        continue;
      }
      if (nd <= 2) {
        size_t q = e;
        while (q < c.len && c.s[q] == ' ')
          q++;
        size_t wl = tpl_sc_word(&c, q);
        /* 5 March 2024, 5th March */
        int64_t day;
        tpl_sc_num(&c, 2, &day);
        if (wl == 2 &&
            (memcmp(c.s + q, "st", 2) == 0 || memcmp(c.s + q, "nd", 2) == 0 ||
             memcmp(c.s + q, "rd", 2) == 0 || memcmp(c.s + q, "th", 2) == 0)) {
          q += 2;
          while (q < c.len && c.s[q] == ' ')
            q++;
          wl = tpl_sc_word(&c, q);
        }
        int mon = tpl_match_month(c.s + q, wl);
        if (mon) {
          c.pos = q + wl;
          w->have_date = true;
          w->m = mon;
          w->d = (int)day;
          w->y = INT64_MIN;
          if (tpl_sc_year_after(&c, " ,-.", &y))
            w->y = y;
          continue;
        }
        /* "+N unit" without sign: "3 days" */
        if (wl && tpl_match_unit(c.s + q, wl)) {
          tpl_add_rel(w, tpl_match_unit(c.s + q, wl), day);
          c.pos = q + wl;
          continue;
        }
        /* 3pm */
        if (wl == 2 &&
            (memcmp(c.s + q, "am", 2) == 0 || memcmp(c.s + q, "pm", 2) == 0) &&
            day >= 1 && day <= 12) {
          w->have_time = true;
          w->h = (int)(day % 12 + (c.s[q] == 'p' ? 12 : 0));
          w->i = w->s = w->us = 0;
          c.pos = q + 2;
          continue;
        }
        return false;
      }
      if (nd == 4 && !w->have_date) {
        /* a bare year after a month name was handled there; "2024" alone
         * is a time (20:24) in PHP */
        int64_t hh = (c.s[p] - '0') * 10 + (c.s[p + 1] - '0');
        int64_t mm = (c.s[p + 2] - '0') * 10 + (c.s[p + 3] - '0');
        if (hh > 23 || mm > 59)
          return false;
        c.pos = e;
        w->have_time = true;
        w->h = (int)hh;
        w->i = (int)mm;
        w->s = w->us = 0;
        continue;
      }
      return false;
    }
    if (ch == '+' || ch == '-') {
      if (tpl_sc_digit(&c, p + 1)) {
        /* "+1 day" or a zone "+02:00" after a time */
        size_t q = p + 1;
        while (tpl_sc_digit(&c, q))
          q++;
        size_t r = q;
        while (r < c.len && c.s[r] == ' ')
          r++;
        size_t wl = tpl_sc_word(&c, r);
        int unit = wl ? tpl_match_unit(c.s + r, wl) : 0;
        if (unit) {
          c.pos = p + 1;
          int64_t n;
          tpl_sc_num(&c, 18, &n);
          tpl_add_rel(w, unit, ch == '-' ? -n : n);
          c.pos = r + wl;
          continue;
        }
        if (tpl_sc_zone(rt, &c, w))
          continue;
      }
      return false;
    }
    if (ch >= 'a' && ch <= 'z') {
      size_t wl = tpl_sc_word(&c, p);
      const char *word = c.s + p;
      if (tpl_sc_zone(rt, &c, w))
        continue;
#define IS(lit) (wl == sizeof(lit) - 1 && memcmp(word, lit, wl) == 0)
      c.pos = p + wl;
      if (IS("now"))
        continue;
      if (IS("today") || IS("midnight")) {
        w->reset_time = true;
        continue;
      }
      if (IS("noon")) {
        w->reset_time = true;
        w->have_time = true;
        w->h = 12;
        w->i = w->s = w->us = 0;
        continue;
      }
      if (IS("tomorrow") || IS("yesterday")) {
        w->reset_time = true;
        w->rd += IS("tomorrow") ? 1 : -1;
        continue;
      }
      if (IS("ago")) {
        w->ry = -w->ry, w->rm = -w->rm, w->rd = -w->rd;
        w->rh = -w->rh, w->ri = -w->ri, w->rs = -w->rs;
        continue;
      }
      if (IS("t") && tpl_sc_digit(&c, c.pos)) {
        if (!tpl_sc_time(&c, w))
          return false;
        continue;
      }
      if (IS("next") || IS("last") || IS("previous") || IS("this")) {
        int64_t n = IS("next") ? 1 : IS("this") ? 0 : -1;
        tpl_sc_skip_ws(&c);
        size_t q = c.pos, ql = tpl_sc_word(&c, q);
        int unit = tpl_match_unit(c.s + q, ql);
        int wd = tpl_match_day(c.s + q, ql);
        if (unit) {
          tpl_add_rel(w, unit, n);
        } else if (wd >= 0) {
          w->weekday = wd;
          w->weekday_rel = (int)n;
          w->reset_time = true;
        } else {
          return false;
        }
        c.pos = q + ql;
        continue;
      }
      if (IS("first") && c.pos < c.len) {
        tpl_sc_skip_ws(&c);
        if (c.pos + 6 <= c.len && memcmp(c.s + c.pos, "day of", 6) == 0) {
          c.pos += 6;
          w->first_last = 1;
          w->reset_time = false;
          continue;
        }
        return false;
      }
      int mon = tpl_match_month(word, wl);
      if (mon) {
        /* March 5, 2024 / March 2024 */
        tpl_sc_skip_ws(&c);
        int64_t v;
        size_t q = c.pos;
        int nd = tpl_sc_num(&c, 4, &v);
        w->have_date = true;
        w->m = mon;
        w->d = 1;
        w->y = INT64_MIN;
        if (nd == 4) {
          w->y = v;
        } else if (nd >= 1 && nd <= 2 &&
                   !(c.pos < c.len && c.s[c.pos] == ':')) {
          w->d = (int)v;
          size_t sfx = tpl_sc_word(&c, c.pos);
          if (sfx == 2)
            c.pos += 2;
          if (tpl_sc_year_after(&c, " ,", &v))
            w->y = v;
        } else {
          c.pos = q;
        }
        continue;
      }
      int wd = tpl_match_day(word, wl);
      if (wd >= 0) {
        w->weekday = wd;
        w->weekday_rel = 0;
        continue;
      }
#undef IS
      return false;
    }
    return false;
  }
  return true;
}

/* "last day of" is found by the word scan as "last" + "day"; rewrite. */
static bool tpl_parse_date_full(tpl_rt *rt, const char *s, size_t len,
                                tpl_when *w) {
  const char *key = "last day of";
  for (size_t i = 0; i + 11 <= len; i++) {
    bool m = true;
    for (size_t k = 0; k < 11; k++) {
      char c = s[i + k];
      if (c >= 'A' && c <= 'Z')
        c = (char)(c + 32);
      if (c != key[k]) {
        m = false;
        break;
      }
    }
    if (m) {
      char *copy = oc_arena_strndup(rt->arena, s, len);
      memset(copy + i, ' ', 11);
      if (!tpl_parse_date(rt, copy, len, w))
        return false;
      w->first_last = 2;
      return true;
    }
  }
  return tpl_parse_date(rt, s, len, w);
}

/* Applies a parsed string to a base instant in zone tz (PHP's DateTime
 * constructor and modify()). */
static void tpl_when_apply(const tpl_when *w, int64_t *ts, int32_t *usec,
                           const tpl_tz **tz) {
  if (w->have_zone && !w->have_ts)
    *tz = w->zone;
  int64_t base = *ts;
  if (w->have_ts) {
    base = w->ts;
    *usec = w->us;
    *tz = w->zone;
  }
  int32_t off = tpl_tz_at(*tz, base).off;
  int64_t local = base + off;
  int64_t days = tpl_floor_div(local, 86400);
  int64_t secs = local - days * 86400;
  int64_t y;
  int m, d;
  tpl_civil_from_days(days, &y, &m, &d);
  int64_t h = secs / 3600, i = secs / 60 % 60, s = secs % 60;
  if (w->have_date) {
    if (w->y != INT64_MIN)
      y = w->y;
    m = w->m;
    d = w->d;
    if (!w->have_time)
      h = i = s = 0, *usec = 0;
  }
  if (w->reset_time)
    h = i = s = 0, *usec = 0;
  if (w->have_time) {
    h = w->h;
    i = w->i;
    s = w->s;
    *usec = w->us;
  }
  y += w->ry;
  int64_t mm = m + w->rm;
  y += tpl_floor_div(mm - 1, 12);
  mm = mm - 1 - tpl_floor_div(mm - 1, 12) * 12 + 1;
  if (w->first_last == 1)
    d = 1;
  else if (w->first_last == 2)
    d = tpl_month_days(y, (int)mm);
  days = tpl_days_from_civil(y, mm, d) + w->rd;
  if (w->weekday >= 0) {
    int cur = tpl_weekday(days);
    int diff = (w->weekday - cur + 7) % 7;
    if (w->weekday_rel > 0 && diff == 0)
      diff = 7;
    if (w->weekday_rel < 0)
      diff = diff == 0 ? -7 : diff - 7;
    days += diff;
  }
  local = days * 86400 + (h + w->rh) * 3600 + (i + w->ri) * 60 + s + w->rs;
  if (w->have_ts && !w->have_date && !w->have_time && !w->ry && !w->rm &&
      !w->rd && !w->rh && !w->ri && !w->rs && w->weekday < 0 &&
      !w->first_last && !w->reset_time) {
    *ts = base;
    return;
  }
  *ts = tpl_tz_local_to_utc(*tz, local);
}

/* ---- twig_date_converter -------------------------------------------- */

static bool tpl_all_digits(const char *s, size_t len) {
  if (!len)
    return false;
  for (size_t i = 0; i < len; i++)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return true;
}

static tpl_value tpl_to_date(tpl_rt *rt, tpl_value date, tpl_value tzv,
                             bool keep_zone, const tpl_loc *loc) {
  const tpl_tz *tz = keep_zone              ? NULL
                     : tzv.type == TPL_NULL ? &tpl_tz_utc
                                            : tpl_tz_value(rt, tzv, loc);
  if (date.type == TPL_OBJ && date.u.obj->cls == &tpl_date_class) {
    const tpl_date *d = date.u.obj->data;
    return tpl_date_new(rt, d->ts, d->usec, tz ? tz : d->tz);
  }
  int64_t now = tpl_now(rt);
  if (date.type == TPL_NULL || (date.type == TPL_STR && date.len == 3 &&
                                memcmp(date.u.s, "now", 3) == 0))
    return tpl_date_new(rt, now, 0, tz ? tz : &tpl_tz_utc);
  tpl_value s = date.type == TPL_STR ? date : tpl_to_str(rt, date);
  if (tpl_all_digits(s.u.s, s.len) ||
      (s.len > 1 && s.u.s[0] == '-' && tpl_all_digits(s.u.s + 1, s.len - 1))) {
    tpl_value n;
    tpl_str_is_numeric(s.u.s, s.len, &n);
    int64_t ts = n.type == TPL_INT ? n.u.i : tpl_double_to_int(n.u.f);
    if (ts <= -TPL_TS_MAX || ts >= TPL_TS_MAX)
      tpl_fail(rt, loc,
               "DateTime::__construct(): timestamp %.*s is out of range",
               (int)(s.len > 40 ? 40 : s.len), s.u.s);
    return tpl_date_new(rt, ts, 0, tz ? tz : tpl_tz_offset(rt, 0));
  }
  tpl_when w;
  if (!tpl_parse_date_full(rt, s.u.s, s.len, &w))
    tpl_fail(rt, loc,
             "DateTime::__construct(): Failed to parse time string (%.*s)",
             (int)(s.len > 100 ? 100 : s.len), s.u.s);
  int64_t ts = now;
  int32_t usec = 0;
  const tpl_tz *zone = &tpl_tz_utc;
  tpl_when_apply(&w, &ts, &usec, &zone);
  return tpl_date_new(rt, ts, usec, tz ? tz : zone);
}

/* ---- formatting ----------------------------------------------------- */

static void tpl_put2(oc_sb *b, int64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "%02lld", (long long)v);
  oc_sb_adds(b, buf);
}

static void tpl_put_offset(oc_sb *b, int32_t off, bool colon) {
  int32_t a = off < 0 ? -off : off;
  char buf[16];
  snprintf(buf, sizeof buf, colon ? "%c%02d:%02d" : "%c%02d%02d",
           off < 0 ? '-' : '+', (int)(a / 3600), (int)(a / 60 % 60));
  oc_sb_adds(b, buf);
}

/* The place of format letter c in letters, or -1 */
static inline int tpl_letter_at(const char *letters, char c) {
  const char *p = c ? strchr(letters, c) : NULL;
  return p ? (int)(p - letters) : -1;
}

static tpl_value tpl_date_format(tpl_rt *rt, const tpl_date *dt, tpl_value f) {
  static const char *const mon3[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  static const char *const monf[] = {
      "January", "February", "March",     "April",   "May",      "June",
      "July",    "August",   "September", "October", "November", "December"};
  static const char *const day3[] = {"Sun", "Mon", "Tue", "Wed",
                                     "Thu", "Fri", "Sat"};
  static const char *const dayf[] = {"Sunday",    "Monday",   "Tuesday",
                                     "Wednesday", "Thursday", "Friday",
                                     "Saturday"};
  tpl_tz_type zt = tpl_tz_at(dt->tz, dt->ts);
  int64_t local = dt->ts + zt.off;
  int64_t days = tpl_floor_div(local, 86400);
  int64_t secs = local - days * 86400;
  int64_t y;
  int m, d;
  tpl_civil_from_days(days, &y, &m, &d);
  int h = (int)(secs / 3600), mi = (int)(secs / 60 % 60), s = (int)(secs % 60);
  int wd = tpl_weekday(days);
  int yday = (int)(days - tpl_days_from_civil(y, 1, 1));
  /* ISO 8601 week and year */
  int iso_wd = wd == 0 ? 7 : wd;
  int64_t iso_y = y;
  int week = (yday + 1 - iso_wd + 10) / 7;
  if (week < 1) {
    iso_y = y - 1;
    int jan1 = tpl_weekday(tpl_days_from_civil(iso_y, 1, 1));
    week = (jan1 == 4 || (jan1 == 3 && tpl_leap(iso_y))) ? 53 : 52;
  } else {
    int jan1 = tpl_weekday(tpl_days_from_civil(y, 1, 1));
    int weeks = (jan1 == 4 || (jan1 == 3 && tpl_leap(y))) ? 53 : 52;
    if (week > weeks) {
      week = 1;
      iso_y = y + 1;
    }
  }
  int h12 = h % 12 ? h % 12 : 12;
  /* The letters that print one value, each value at its letter's place:
     a number as it is, a number two digits wide, a name. */
  static const char plain[] = "jNwzntoGgZULI";
  const int64_t plain_v[] = {
      d,   iso_wd, wd,     yday,        m,     tpl_month_days(y, m), iso_y, h,
      h12, zt.off, dt->ts, tpl_leap(y), zt.dst};
  static const char pad2[] = "dWmyhHis";
  /* y % 100 is -84 for -4084, as PHP */
  const int64_t pad2_v[] = {d, week, m, y % 100, h12, h, mi, s};
  static const char names[] = "DlFMaAe";
  const char *const names_v[] = {day3[wd],
                                 dayf[wd],
                                 monf[m - 1],
                                 mon3[m - 1],
                                 h >= 12 ? "pm" : "am",
                                 h >= 12 ? "PM" : "AM",
                                 dt->tz->name};
  _Static_assert(sizeof plain - 1 == sizeof plain_v / sizeof *plain_v &&
                     sizeof pad2 - 1 == sizeof pad2_v / sizeof *pad2_v &&
                     sizeof names - 1 == sizeof names_v / sizeof *names_v,
                 "one value a letter");
  oc_sb b;
  oc_sb_init(&b, rt->arena, (size_t)f.len * 4 + 16);
  char buf[64];
  for (size_t k = 0; k < f.len; k++) {
    char c = f.u.s[k];
    int at;
    if ((at = tpl_letter_at(plain, c)) >= 0) {
      oc_sb_add_int(&b, plain_v[at]);
      continue;
    }
    if ((at = tpl_letter_at(pad2, c)) >= 0) {
      tpl_put2(&b, pad2_v[at]);
      continue;
    }
    if ((at = tpl_letter_at(names, c)) >= 0) {
      oc_sb_adds(&b, names_v[at]);
      continue;
    }
    switch (c) {
    case 'S':
      if (d % 10 == 1 && d != 11)
        oc_sb_adds(&b, "st");
      else if (d % 10 == 2 && d != 12)
        oc_sb_adds(&b, "nd");
      else if (d % 10 == 3 && d != 13)
        oc_sb_adds(&b, "rd");
      else
        oc_sb_adds(&b, "th");
      break;
    case 'X':
    case 'x':
      if (c == 'X' || y >= 10000 || y < 0) {
        snprintf(buf, sizeof buf, "%c%04lld", y < 0 ? '-' : '+',
                 (long long)(y < 0 ? -y : y));
        oc_sb_adds(&b, buf);
        break;
      }
      /* fall through */
    case 'Y':
      snprintf(buf, sizeof buf, "%s%04lld", y < 0 ? "-" : "",
               (long long)(y < 0 ? -y : y));
      oc_sb_adds(&b, buf);
      break;
    case 'B': {
      int64_t r = ((dt->ts % 86400 + 86400) % 86400 + 3600) * 10;
      if (r < 0)
        r += 864000;
      snprintf(buf, sizeof buf, "%03d", (int)((r / 864) % 1000));
      oc_sb_adds(&b, buf);
      break;
    }
    case 'u':
      snprintf(buf, sizeof buf, "%06d", (int)dt->usec);
      oc_sb_adds(&b, buf);
      break;
    case 'v':
      snprintf(buf, sizeof buf, "%03d", (int)(dt->usec / 1000));
      oc_sb_adds(&b, buf);
      break;
    case 'O':
      tpl_put_offset(&b, zt.off, false);
      break;
    case 'P':
      tpl_put_offset(&b, zt.off, true);
      break;
    case 'p':
      if ((dt->tz->kind == TPL_TZ_OFFSET && zt.off == 0) ||
          (zt.abbr &&
           (strcmp(zt.abbr, "UTC") == 0 || strcmp(zt.abbr, "Z") == 0)))
        oc_sb_addc(&b, 'Z');
      else
        tpl_put_offset(&b, zt.off, true);
      break;
    case 'T':
      if (dt->tz->kind == TPL_TZ_OFFSET) {
        oc_sb_adds(&b, "GMT");
        tpl_put_offset(&b, zt.off, false);
      } else {
        oc_sb_adds(&b, zt.abbr ? zt.abbr : dt->tz->name);
      }
      break;
    case 'c':
      snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02d:%02d:%02d", (long long)y,
               m, d, h, mi, s);
      oc_sb_adds(&b, buf);
      tpl_put_offset(&b, zt.off, true);
      break;
    case 'r':
      snprintf(buf, sizeof buf, "%s, %02d %s %04lld %02d:%02d:%02d ", day3[wd],
               d, mon3[m - 1], (long long)y, h, mi, s);
      oc_sb_adds(&b, buf);
      tpl_put_offset(&b, zt.off, false);
      break;
    case '\\':
      if (k + 1 < f.len)
        k++;
      oc_sb_addc(&b, f.u.s[k]);
      break;
    default:
      oc_sb_addc(&b, c);
    }
  }
  return tpl_sb_value(&b);
}

/* PHP's json_encode of a DateTime: its public-looking properties. */
tpl_value tpl_date_json_map(tpl_rt *rt, const tpl_date *d) {
  tpl_map *m = tpl_map_new(rt->arena, 3);
  tpl_map_set_str(rt->arena, m, "date",
                  tpl_date_format(rt, d, tpl_cstr("Y-m-d H:i:s.u")));
  int type = d->tz->kind == TPL_TZ_OFFSET                          ? 1
             : (d->tz->kind == TPL_TZ_UTC && d->tz != &tpl_tz_utc) ? 2
                                                                   : 3;
  tpl_map_set_str(rt->arena, m, "timezone_type", tpl_int(type));
  tpl_map_set_str(rt->arena, m, "timezone", tpl_cstr(d->tz->name));
  return tpl_map_value(m);
}

/* ---- filters and function ------------------------------------------- */

tpl_value tpl_date_filter(tpl_rt *rt, tpl_ctx *ctx, int argc,
                          const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value format = HAS(1) ? tpl_to_str(rt, argv[1]) : tpl_cstr("F j, Y H:i");
  tpl_value tzv = ARG(2);
  bool keep = tzv.type == TPL_BOOL && !tzv.u.b;
  tpl_value d = tpl_to_date(rt, ARG(0), tzv, keep, loc);
  return tpl_date_format(rt, d.u.obj->data, format);
}

tpl_value tpl_date_modify_filter(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                 const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value d = tpl_to_date(rt, ARG(0), tpl_null(), true, loc);
  tpl_date *dt = d.u.obj->data;
  tpl_value mod = tpl_to_str(rt, ARG(1));
  tpl_when w;
  if (!tpl_parse_date_full(rt, mod.u.s, mod.len, &w))
    return tpl_bool(false); /* DateTime::modify() warns and gives false */
  tpl_when_apply(&w, &dt->ts, &dt->usec, &dt->tz);
  if (dt->ts <= -TPL_TS_MAX || dt->ts >= TPL_TS_MAX)
    return tpl_bool(false);
  return d;
}

tpl_value tpl_date_function(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value tzv = ARG(1);
  bool keep = tzv.type == TPL_BOOL && !tzv.u.b;
  return tpl_to_date(rt, ARG(0), tzv, keep, loc);
}
