package main

// Time zones: what time.LoadLocation, Time.In(loc) (Date, Clock, Weekday, Zone, IsDST,
// ZoneBounds) and time.Date(...).Unix() answer, for real zones of the system tz database and for
// TZif files built here byte by byte (footer rules, the zone picked before the first transition,
// malformed files, and the "slim" files Go itself ships). Standard library only.
//
// The instants are found, not listed: from a few seed dates the table walks each zone's periods
// with ZoneBounds, so it records the moments around real transitions (and around the period
// bounds Go derives from a footer rule) whatever the tz database release says.

import (
	"archive/zip"
	"encoding/binary"
	"encoding/hex"
	"io"
	"path/filepath"
	"runtime"
	"strconv"
	"time"
)

var zoneNames = []string{
	"America/New_York", "Europe/London", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata",
	"Pacific/Chatham", "America/Sao_Paulo", "Africa/Casablanca", "Pacific/Apia", "UTC",
}

// Seconds with no particular zone in mind: far past (before any zone's first transition, and
// negative years), the epoch, 32-bit limits, far future.
var fixedInstants = []int64{
	-100000000000, -62167219200, -62135596800, -5000000000, -2208988800, -86401, -1, 0, 1,
	1000000000, 2147483647, 2147483648, 4102444800, 4000000000, 100000000000, 253402300799,
}

// Years whose first periods are walked: before the first transition, the era of each zone's
// notable changes, today, 2038-2040 and 2100 (footer rules in slim files, beyond 2037 in any).
var seedYears = []int{1800, 1850, 1900, 1970, 2011, 2018, 2019, 2024, 2025, 2038, 2039, 2040, 2100}

// Civil times given to time.Date in every zone: gaps and overlaps of several zones, and fields
// Date normalises (month 13, day 0, day 32, hour 25, negative minutes and seconds, ...).
var fixedDates = [][6]int{
	{2024, 3, 10, 2, 30, 0}, {2024, 11, 3, 1, 30, 0}, {2024, 13, 1, 0, 0, 0}, {2024, 3, 0, 12, 0, 0},
	{2024, 1, 32, 0, 0, 0}, {2024, 3, 9, 25, 0, 0}, {2024, 3, 10, 0, -1, 0}, {2024, 0, 0, 0, 0, -1},
	{2024, -13, -40, -30, -70, -3700}, {2023, 2, 29, 0, 0, 0}, {2024, 1, 1, 0, 0, 100000000},
	{2024, 25, 400, 1000, 100000, -100000000}, {-500, 6, 15, 12, 0, 0}, {0, 1, 1, 0, 0, 0},
	{1, 1, 1, 0, 0, 0}, {-1, 12, 31, 23, 59, 59}, {2039, 3, 13, 2, 30, 0}, {2039, 11, 6, 1, 30, 0},
	{2100, 3, 14, 2, 30, 0}, {2100, 11, 7, 1, 30, 0}, {2011, 12, 30, 12, 0, 0},
	{2011, 12, 29, 23, 59, 59}, {2011, 12, 31, 0, 0, 0}, {1883, 11, 18, 12, 0, 0},
	{1800, 1, 1, 0, 0, 0}, {9999, 12, 31, 23, 59, 59}, {2024, 10, 27, 1, 30, 0},
	{2024, 3, 31, 1, 30, 0}, {2024, 3, 31, 2, 30, 0}, {2024, 4, 7, 1, 45, 0}, {2024, 10, 6, 2, 15, 0},
	{2024, 4, 7, 3, 15, 0}, {2024, 9, 29, 2, 45, 0}, {2019, 11, 3, 0, 30, 0}, {2018, 11, 4, 0, 30, 0},
	{2019, 2, 16, 23, 30, 0}, {2025, 2, 23, 2, 30, 0}, {2025, 4, 6, 2, 30, 0}, {1970, 1, 1, 0, 0, 0},
}

// A period bound, null where ZoneBounds gives the zero Time: for an unbounded period, and also
// for a bound at 0001-01-01 00:00:00 UTC, which Go cannot tell apart from it.
func boundRecord(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.Unix()
}

func instantRecord(unix int64, loc *time.Location) record {
	t := time.Unix(unix, 0).In(loc)
	name, offset := t.Zone()
	start, end := t.ZoneBounds()
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	return record{"unix": unix, "year": y, "month": int(mo), "day": d, "hour": h, "min": mi,
		"sec": s, "weekday": int(t.Weekday()), "abbrev_hex": hex.EncodeToString([]byte(name)), "offset": offset, "dst": t.IsDST(),
		"start": boundRecord(start), "end": boundRecord(end)}
}

func dateRecord(f [6]int, loc *time.Location) record {
	u := time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], 0, loc).Unix()
	return record{"fields": f[:], "unix": u}
}

// probe records, for loc, the fixed instants and dates plus the moments around the first
// `steps` period bounds after each seed year's start, and civil times just before and after
// each such bound in the offsets on either side of it.
func probe(loc *time.Location, years []int, steps int) (instants, dates []record) {
	seen := map[int64]bool{}
	addInstant := func(u int64) {
		if !seen[u] {
			seen[u] = true
			instants = append(instants, instantRecord(u, loc))
		}
	}
	for _, u := range fixedInstants {
		addInstant(u)
	}
	for _, f := range fixedDates {
		dates = append(dates, dateRecord(f, loc))
	}
	for _, year := range years {
		t := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Hour).In(loc)
		addInstant(t.Unix())
		for i := 0; i < steps; i++ {
			_, end := t.ZoneBounds()
			if end.IsZero() {
				break
			}
			bound := end.Unix()
			addInstant(bound - 1)
			addInstant(bound)
			_, before := end.Add(-time.Second).Zone()
			_, after := end.Zone()
			for _, off := range []int{before, after} {
				for k := -1; k <= 1; k++ {
					c := time.Unix(bound+int64(off)+int64(k)*1800, 0).UTC()
					f := [6]int{c.Year(), int(c.Month()), c.Day(), c.Hour(), c.Minute(), c.Second()}
					dates = append(dates, dateRecord(f, loc))
				}
			}
			t = end
		}
	}
	return instants, dates
}

// tzifZone is one local time type of a hand-built TZif file.
type tzifZone struct {
	offset int32
	dst    bool
	abbrev string
}

type tzifTx struct {
	when int64
	zone uint8
}

// buildTzif writes a TZif file: version 0 ('\0', v1 only), '2', '3', '4' or anything else,
// then the data block (32-bit), and for version >= 2 the second header, the 64-bit block and
// the footer (written as given, newlines included).
func buildTzif(version byte, zones []tzifZone, txs []tzifTx, footer string) []byte {
	var chars []byte
	idx := make([]byte, len(zones))
	for i, z := range zones {
		idx[i] = byte(len(chars))
		chars = append(append(chars, z.abbrev...), 0)
	}
	block := func(wide bool) []byte {
		var b []byte
		b = append(b, "TZif"...)
		b = append(b, version)
		b = append(b, make([]byte, 15)...)
		for _, n := range []int{0, 0, 0, len(txs), len(zones), len(chars)} {
			b = binary.BigEndian.AppendUint32(b, uint32(n))
		}
		for _, tx := range txs {
			if wide {
				b = binary.BigEndian.AppendUint64(b, uint64(tx.when))
			} else {
				b = binary.BigEndian.AppendUint32(b, uint32(int32(tx.when)))
			}
		}
		for _, tx := range txs {
			b = append(b, tx.zone)
		}
		for i, z := range zones {
			b = binary.BigEndian.AppendUint32(b, uint32(z.offset))
			dst := byte(0)
			if z.dst {
				dst = 1
			}
			b = append(b, dst, idx[i])
		}
		return append(b, chars...)
	}
	out := block(false)
	if version >= '2' {
		out = append(out, block(true)...)
	}
	return append(out, footer...)
}

// Footer rules, each alone in a file with no transitions, so the rule answers for every time:
// both hemispheres, Jn and n days, times past 24 hours and negative, <quoted> names, defaults,
// and rules Go refuses (then the file's one zone answers).
var footerRules = []string{
	"EST5EDT,M3.2.0,M11.1.0", "<+0530>-5:30", "IST-2IDT,M3.4.4/26,M10.5.0",
	"AEST-10AEDT,M10.1.0,M4.1.0/3", "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", "XXX3YYY,J60/-1,J300/170",
	"AAA-1BBB,59,300/25", "AAA-1BBB,0,365", "NZST-12NZDT,M9.5.0,M4.1.0/3", "EST5EDT",
	"EST5EDT4,M3.2.0/2:30:15,M11.1.0/1:0:0", "EST5EDT;M3.2.0,M11.1.0", "<>5<>4,M3.2.0,M11.1.0",
	"EST+5EDT,M3.2.0,M11.1.0", "ES5", "EST", "EST5EDT,M3.2.0", "EST5EDT,M13.2.0,M11.1.0",
	"EST5EDT,M3.6.0,M11.1.0", "EST5EDT,J0,J365", "EST5EDT,J1,J365", "EST5EDT,M3.2.0,M11.1.0x",
	"EST169", "EST168", "EST5:60", "EST5:59:59EDT,M3.2.0,M11.1.0", "<EST5", "EST5,M3.2.0,M11.1.0",
	"EST5EDT,M3.2.0/167,M11.1.0/-167", "EST5EDT,M3.5.6,M2.5.0", "GMT0BST,M3.5.0/1,M10.5.0", "<+13>-13",
	"<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "", "WET0WEST,M3.5.0,M10.5.0/3", "EST5EDT,M3.2.0;M11.1.0",
	"EST5EDT,366,0", "EST5EDT,M2.5.0/0,M2.5.6/24", "<+00>0<+01>-1,0/0,J365/25", "A\xffB5C\xffD,M3.2.0,M11.1.0",
	"EST:5EDT,M3.2.0,M11.1.0", "EST5EDT,M3.2.0,M11.1.0\nXYZ",
}

// Years whose periods are walked in the hand-built files: negative years, around the epoch
// (negative seconds), leap and common years, far future.
var ruleYears = []int{-100, 1969, 1970, 2024, 2025, 2100, 2400}

// slimZones are read from Go's own zoneinfo.zip, which is built "slim" (no transitions the footer
// rule can compute), to compare ours with Go's on the same bytes.
var slimZones = []string{
	"America/New_York", "Europe/London", "Australia/Lord_Howe", "Pacific/Apia", "Africa/Casablanca",
	"Pacific/Chatham", "America/Sao_Paulo",
}

func slimZoneFiles() map[string][]byte {
	out := map[string][]byte{}
	z, err := zip.OpenReader(filepath.Join(runtime.GOROOT(), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		return out // no zip: the C++ test then relies on its own slim files
	}
	defer z.Close()
	for _, f := range z.File {
		for _, name := range slimZones {
			if f.Name != name {
				continue
			}
			if r, err := f.Open(); err == nil {
				if b, err := io.ReadAll(r); err == nil {
					out[name] = b
				}
				r.Close()
			}
		}
	}
	return out
}

func tzifCases() []record {
	var cases []record
	add := func(label string, b []byte, years []int) {
		r := record{"label": label, "hex": hex.EncodeToString(b)}
		loc, err := time.LoadLocationFromTZData(label, b)
		r["err"] = errText(err)
		if err == nil {
			r["instants"], r["dates"] = probe(loc, years, 4)
		}
		cases = append(cases, r)
	}
	one := []tzifZone{{3600, false, "ZZZ"}}
	for _, rule := range footerRules {
		add("footer "+rule, buildTzif('2', one, nil, "\n"+rule+"\n"), ruleYears)
	}
	// Transitions, then a footer: the file answers up to its last transition, the rule after.
	est := []tzifZone{{-18000, false, "EST"}, {-14400, true, "EDT"}, {-17762, false, "LMT"}}
	txs := []tzifTx{{-2717650800, 0}, {1710054000, 1}, {1730613600, 0}}
	add("transitions then footer", buildTzif('2', est, txs, "\nEST5EDT,M3.2.0,M11.1.0\n"), ruleYears)
	add("transitions, empty footer", buildTzif('2', est, txs, "\n\n"), ruleYears)
	add("transitions, no footer", buildTzif('2', est, txs, ""), ruleYears)
	add("footer without final newline", buildTzif('2', est, txs, "\nEST5EDT,M3.2.0,M11.1.0"), ruleYears)
	add("v3", buildTzif('3', est, txs, "\nEST5EDT,M3.2.0,M11.1.0\n"), ruleYears)
	add("v1", buildTzif(0, est, txs, ""), ruleYears)
	add("v1 with trailing rule", buildTzif(0, est, txs, "\nEST5EDT,M3.2.0,M11.1.0\n"), ruleYears)
	// The zone in effect before the first transition.
	dstFirst := []tzifZone{{7200, true, "DST"}, {3600, false, "STD"}}
	add("first zone unused", buildTzif('2', []tzifZone{{1234, false, "UNU"}, {3600, false, "STD"},
		{7200, true, "DST"}}, []tzifTx{{0, 2}, {100000, 1}}, ""), []int{1969, 1970})
	add("first transition to DST", buildTzif('2', []tzifZone{{3600, false, "STD"}, {7200, true, "DST"},
		{10800, true, "DS2"}}, []tzifTx{{0, 2}, {100000, 0}}, ""), []int{1969, 1970})
	add("DST zone first", buildTzif('2', dstFirst, []tzifTx{{0, 0}, {100000, 1}}, ""), []int{1969, 1970})
	add("only DST zones", buildTzif('2', []tzifZone{{7200, true, "DSA"}, {10800, true, "DSB"}},
		[]tzifTx{{0, 1}, {100000, 0}}, ""), []int{1969, 1970})
	add("no transitions, two zones", buildTzif('2', dstFirst, nil, ""), []int{1970})
	// (No file with transitions out of order: Go then answers from the period it cached for the
	// moment of loading, so its answers would change with the clock.)
	add("repeated transition times", buildTzif('2', est, []tzifTx{{-2717650800, 0}, {1710054000, 1},
		{1710054000, 0}, {1730613600, 1}}, ""), []int{1883, 2024})
	add("32-bit limits", buildTzif('2', est, []tzifTx{{-1 << 31, 0}, {1<<31 - 1, 1}}, ""), []int{1901, 2038})
	add("64-bit far", buildTzif('2', est, []tzifTx{{-1 << 40, 0}, {1 << 40, 1}}, "\nEST5\n"), []int{-30000, 1970})
	add("huge offsets", buildTzif('2', []tzifZone{{-2147483648, false, "NEG"}, {2147483647, false, "POS"}},
		[]tzifTx{{0, 1}}, ""), []int{1970})
	// The characters end without a NUL: the abbreviation runs to their end.
	noNul := buildTzif(0, one, nil, "")
	noNul[43]--
	add("abbrev without NUL", noNul[:len(noNul)-1], []int{1970})
	// Malformed: Go refuses every one with the same message.
	valid := buildTzif('2', est, txs, "\nEST5EDT,M3.2.0,M11.1.0\n")
	for _, n := range []int{0, 3, 4, 5, 19, 20, 43, 44, 60, 80, 100, 120, 140, 160, 180, len(valid) - 24, len(valid) - 1} {
		if n < len(valid) {
			add("truncated to "+strconv.Itoa(n)+" bytes", valid[:n], nil)
		}
	}
	bad := func(edit func(b []byte) []byte) []byte { return edit(append([]byte(nil), valid...)) }
	add("bad magic", bad(func(b []byte) []byte { b[0] = 'X'; return b }), nil)
	add("version '1'", bad(func(b []byte) []byte { b[4] = '1'; return b }), nil)
	v1len := len(buildTzif(0, est, txs, ""))
	add("version '4'", bad(func(b []byte) []byte { b[4] = '4'; b[v1len+4] = '4'; return b }), nil)
	add("version 'x'", bad(func(b []byte) []byte { b[4] = 'x'; return b }), nil)
	add("huge count", bad(func(b []byte) []byte { b[32] = 0xff; return b }), nil)
	add("counts past the end", bad(func(b []byte) []byte { b[35]++; return b }), nil)
	add("no zones", buildTzif('2', nil, nil, ""), nil)
	add("zone index out of range", buildTzif('2', est, []tzifTx{{0, 3}}, ""), nil)
	add("abbrev index out of range", bad(func(b []byte) []byte {
		// The last zone's abbreviation index, in the 64-bit block, points past the characters.
		last := len(b) - len("\nEST5EDT,M3.2.0,M11.1.0\n") - len("EST\x00EDT\x00LMT\x00") - 1
		b[last] = 12
		return b
	}), nil)
	// Go's own slim files.
	files := slimZoneFiles()
	for _, name := range slimZones {
		if b, ok := files[name]; ok {
			add("slim "+name, b, []int{1800, 1950, 2006, 2007, 2008, 2024, 2039, 2100})
		}
	}
	return cases
}

// Names for time.LoadLocation (hex, since one holds a NUL): invalid names, names of no zone, a
// directory, a file that is no TZif, aliases and spellings that reach a real file. "Local"
// depends on the environment and is left to the unit tests.
var loadNames = []string{
	"America/Nowhere", "../etc/passwd", "/etc/localtime", "a\\b", "\\a", "", "UTC", "Europe",
	"America/New_York/x", "America/New_York", "a..b", ".", "./America/New_York", "America//New_York",
	"zone1970.tab", "a\x00b", "US/Eastern", "Etc/GMT+5", "EST5EDT", "Factory", "utc", "right/UTC",
	"leap-seconds.list", "..", "Europe/", "Asia/Kolkata",
}

func addZones(add func(string, record)) {
	for _, name := range zoneNames {
		loc, err := time.LoadLocation(name)
		if err != nil {
			panic(err) // the system tz database must have every zone of the table
		}
		instants, dates := probe(loc, seedYears, 4)
		add("zone", record{"zone": name, "instants": instants, "dates": dates})
	}
	for _, c := range tzifCases() {
		add("tzif", c)
	}
	for _, name := range loadNames {
		loc, err := time.LoadLocation(name)
		r := record{"in_hex": hex.EncodeToString([]byte(name)), "err": errText(err)}
		if err == nil {
			r["name"] = loc.String()
		}
		add("load_location", r)
	}
}
