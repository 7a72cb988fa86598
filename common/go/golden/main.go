// Command golden writes, as one JSON document (the file named by its argument), what Go's own strconv, time, encoding/json,
// regexp and sigs.k8s.io/yaml (as kubectl uses it) answer for a table of inputs. The C++ tests of
// common/go compare every answer with ours, so "behaves as Go" is checked against Go itself.
//
// Strings that may not be valid UTF-8 travel as hex ("in_hex"), since encoding/json would replace
// bad bytes. Floats travel as their IEEE-754 bits, so no decimal round trip sits in between.
package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"regexp"
	"strconv"
	"time"

	"sigs.k8s.io/yaml"
)

type record map[string]any

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func floatRecord(v float64, err error) record {
	r := record{"err": errText(err), "nan": math.IsNaN(v)}
	if !math.IsNaN(v) {
		r["bits"] = math.Float64bits(v)
	}
	return r
}

var intInputs = []string{
	"", "0", "1", "-1", "+1", "42", "-42", "007", "08", "0x1f", "0X1F", "-0x10", "0o17", "0O17",
	"0b101", "0B101", "0b", "0x", "0o", "1_000", "0x_1f", "0_7", "1__0", "_1", "1_", "-_1",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"18446744073709551615", "18446744073709551616", "99999999999999999999", "127", "128", "-128",
	"-129", "255", "256", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295",
	"4294967296", "abc", "1a", "١", " 1", "1 ", "0xg", "z", "--1", "+-1", "1e3", "1.0",
}

var floatInputs = []string{
	"", "0", "-0", "1", "1.5", "-1.5", ".5", "5.", ".", "1e3", "1E3", "1e+3", "1e-3", "1e", "1e+",
	"e3", "0x1p-2", "0X1P+2", "0x1.8p3", "0x1", "0x.p1", "0x_1p0", "1_000.5", "1__0", "_1", "1_",
	"inf", "+Inf", "-INF", "infinity", "-Infinity", "infin", "nan", "NaN", "-nan", "+nan", "nanx",
	"1e308", "1e309", "-1e309", "1e400", "1e-400", "4.9e-324", "2.5e-324", "3.4028234663852886e38",
	"3.5e38", "1.401298464324817e-45", "0.1", "0.2", "123456789012345678901234567890", "1,5",
	" 1", "1 ", "1.2.3", "0.000001", "1e-7", "abc", "0x1p3", "+2.5e1", "-0x1p2000", "0b1", "Inf",
	"+infinity", "1.",
}

var formatFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 50, 1e6, 1e5, 123456, 1234567, 1e-4, 1e-5, 0.0001234,
	1e21, 1e20, 1e-6, 1e-7, 1.5, 0.1, 0.2, 0.30000000000000004, 1.0 / 3, 2.0 / 3, 100, 3.14159,
	math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, 1e100, 123456789, 1.5e-300,
	12345678901234567890, math.Inf(1), math.Inf(-1), math.NaN(), 16777216, 16777217, 0.75,
}

var boolInputs = []string{"1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false",
	"False", "", "yes", "tRUE", "2", " true"}

var quoteInputs = []string{
	"", "abc", "a\"b", "a\\b", "tab\there", "new\nline", "\r", "\a\b\f\v", "\x00", "\x7f",
	"é", "日本", "\xff", "a\xc3", "\xed\xa0\x80", "\u2028", "\u00a0", "\U0001F600", "\ufeff",
	"\u200b", "\u0301", "'", "`", "\xef\xbf\xbd", "\u00ad", "\ue000", "\U000E0001", "\ufdd0",
	"\uffff", "\U0010FFFF", "\u0085", "\u3000", "\u061c", "\xc0\x80", "\xf4\x90\x80\x80",
}

var durationInputs = []string{
	"", "0", "+0", "-0", "1", "1s", "-1s", "+1s", "1.5h", "-1.5h", "1h30m", "300ms", "2us", "2µs",
	"2μs", "1ns", "1h2m3.5s", ".5s", "5.s", ".s", "1.s", "1x", "1d", "1 s", "s", "1s2", "1.2.3s",
	"2562047h47m16.854775807s", "2562047h47m16.854775808s", "-2562047h47m16.854775808s",
	"-2562047h47m16.854775809s", "9223372036854775807ns", "9223372036854775808ns",
	"-9223372036854775808ns", "99999999999999999999ns", "0.1234567890123456789012345s",
	"1.00000000000000000000000001s", "3000000h", "\xffs", "1\xff", "1\"", "1é", "1\\",
	"10000000000000000000000000000000000000000.0001s", "1m1m1m", "1h-1m", "0.000000001s",
	"0.0000000001s", "1e3s", "1.0000000001s", "0.1ns", "-", ".", "abc", "5", "1h1", "1.5.5s",
	"2562048h", "100000000000000000000ns", "5m", "+2us", "3µs", "4μs",
}

var formatDurations = []time.Duration{
	0, 1, -1, 999, 1000, 1001, 1500, 999999, 1000000, 1500000, 999999999, time.Second,
	1500 * time.Millisecond, time.Minute, 90 * time.Second, time.Hour, 3661 * time.Second,
	-90 * time.Second, time.Duration(math.MaxInt64), time.Duration(math.MinInt64),
	100 * time.Hour, time.Hour + time.Nanosecond, 2*time.Second + 5*time.Microsecond,
	time.Millisecond + 1, time.Second + 1, 62500 * time.Millisecond, 100*time.Hour + 2*time.Minute + 3*time.Second,
}

var regexpInputs = []string{
	"", "a", "a(b", "a)b", "[a", "a]", "a**", "a*?", "a{2,1}", "a{1001}", "a{2}{3}", "\\", "\\x",
	"\\xZ", "\\x{110000}", "\\p{Greek}", "\\p{greek}", "\\p{Old_Italic}", "\\p{Nope}", "\\pL",
	"\\pZ", "[[:alpha:]]", "[[:nope:]]", "[z-a]", "(?i)a", "(?z)a", "(?P<n>a)", "(?P<n>a)(?P<n>b)",
	"(?<n>a)", "(?P<1n>a)", "*", "+a", "a|*", "x{1,1001}", "\\8", "\\Q*\\E", "[\\d-z]", "(?:a",
	"^$", "a{,5}", "\\C", "[^\\x00-\\x{10FFFF}]", "\xff", "(?P=n)", "a++", "\\b\\B\\A\\z",
}

// Pattern and subject pairs for regexp.MatchString (HyperNode regexMatch against node names):
// unanchored search, anchors, classes, alternation order, Unicode, flags, repetition.
var regexpMatchInputs = [][2]string{
	{"^node-[0-9]+$", "node-12"}, {"^node-[0-9]+$", "node-12a"}, {"node", "my-node-1"},
	{"^rack1-", "rack1-node"}, {"^rack1-", "xrack1-node"}, {"a|ab", "ab"}, {"(?i)NODE", "node-1"},
	{"^$", ""}, {"^$", "x"}, {"", "anything"}, {"\\d{2}$", "n-07"}, {"\\d{2}$", "n-7"},
	{"[[:alpha:]]+-\\d", "gpu-3"}, {"\\pL+", "123"}, {"\\p{Greek}", "αβ"}, {"é", "café"},
	{"^.$", "é"}, {"a.c", "a\nc"}, {"(?s)a.c", "a\nc"}, {"a$", "a\n"}, {"(?m)a$", "a\nb"},
	{"\\bnode\\b", "a node b"}, {"\\bnode\\b", "anode"}, {"\\Qa.b\\E", "axb"},
	{"\\Qa.b\\E", "a.b"}, {"x{2,3}", "axxb"}, {"x{2,3}", "axb"}, {"[^a]", "\n"},
	{"(?U)a+", "aaa"}, {"\\x{41}", "A"}, {"[a-c]+z", "abcz"}, {"\\C", "a"}, {"(?P<n>a)b", "ab"},
	{"^node-(1|2|3)$", "node-3"}, {"^node-(1|2|3)$", "node-4"}, {"\\Aa", "ba"}, {"a\\z", "a"},
}

// Strings for encoding/json's escaping, beyond quoteInputs: HTML-significant bytes, every
// control character class, invalid UTF-8 in several shapes.
var jsonStrings = []string{
	"<script>&amp;</script>", "a\u2028b\u2029c\u20ac\u2027\u202a", "\xe2", "x\xe2\x80",
	"\xe2\x80\xa8\xe2", "quote \" and backslash \\ and slash /", "\x01\x02\x07\b\t\n\x0b\f\r\x0e\x1f",
	"nul\x00inside", "\xc0\xaf", "ab\xc3", "\xf0\x9f\x98", "ok\xffok", "\x80\x80", "caf\xc3\xa9 \xf0\x9f\x98\x80",
}

// Plain scalars (as the value of a one-key map) and one-key documents with other shapes.
var yamlScalars = []string{
	"y", "Yes", "on", "OFF", "n", "true", "False", "~", "null", "", "1", "-1", "+1", "0x1F", "0o17",
	"0b101", "010", "08", "1_000", "9223372036854775807", "9223372036854775808",
	"18446744073709551615", "18446744073709551616", "1.5", "1e3", ".5", "1.0", "-0.0", "1e400",
	"1e-400", ".inf", "-.Inf", ".nan", "2024-01-02", "12:30", "abc", "1.2.3", "0x", "+",
	"0.1e1_0", "1_2.5", "-9223372036854775809", "1e1_0", "'quoted'", "\"1\"", "!!str 1", "!!int \"1\"", "!!float 1", "!!bool yes",
	"!!int abc", "!!binary aGVsbG8=", "!!null ~", "1e21", "1e-7", "123456789.125",
}

// Random documents over a string alphabet heavy in the bytes that need care, with numbers of
// every JSON kind; the seed is fixed, so the table is the same on every build.
func randomDoc(r *rand.Rand, depth int) any {
	pieces := []string{"a", "Z", "0", " ", "\"", "\\", "/", "<", ">", "&", "\n", "\t", "\x01", "\x1f",
		"\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xf0\x9f\x98\x80",
		"long run of plain ascii text "}
	text := func() string {
		s := ""
		for i := r.Intn(8); i > 0; i-- {
			s += pieces[r.Intn(len(pieces))]
		}
		return s
	}
	n := 8
	if depth > 4 {
		n = 6
	}
	switch r.Intn(n) {
	case 0:
		return nil
	case 1:
		return r.Intn(2) == 0
	case 2:
		return r.Int63() - r.Int63()
	case 3:
		return r.Uint64()
	case 4:
		return math.Ldexp(float64(r.Int63n(4e9))-2e9, r.Intn(80)-40)
	case 5:
		return text()
	case 6:
		a := []any{}
		for i := r.Intn(5); i > 0; i-- {
			a = append(a, randomDoc(r, depth+1))
		}
		return a
	default:
		o := map[string]any{}
		for i := r.Intn(5); i > 0; i-- {
			o[text()] = randomDoc(r, depth+1)
		}
		return o
	}
}

func main() {
	out := map[string][]record{}
	add := func(k string, r record) { out[k] = append(out[k], r) }

	for _, s := range intInputs {
		for _, c := range []struct{ base, bits int }{{0, 64}, {0, 32}, {0, 8}, {10, 64}, {16, 16}} {
			v, err := strconv.ParseInt(s, c.base, c.bits)
			add("parse_int", record{"in": s, "base": c.base, "bits": c.bits, "value": v, "err": errText(err)})
		}
		for _, bits := range []int{64, 32} {
			v, err := strconv.ParseUint(s, 0, bits)
			add("parse_uint", record{"in": s, "bits": bits, "value": v, "err": errText(err)})
		}
	}
	for _, s := range floatInputs {
		for _, bits := range []int{64, 32} {
			r := floatRecord(strconv.ParseFloat(s, bits))
			r["in"], r["bits_size"] = s, bits
			add("parse_float", r)
		}
	}
	for _, f := range formatFloats {
		add("format_float", record{"bits": math.Float64bits(f), "size": 64, "out": strconv.FormatFloat(f, 'g', -1, 64)})
		if f32 := float32(f); !math.IsInf(float64(f32), 0) || math.IsInf(f, 0) {
			add("format_float", record{"bits": math.Float64bits(float64(f32)), "size": 32,
				"out": strconv.FormatFloat(float64(f32), 'g', -1, 32)})
		}
		if !math.IsNaN(f) && !math.IsInf(f, 0) {
			b, _ := json.Marshal(f)
			add("json_float", record{"bits": math.Float64bits(f), "out": string(b)})
		}
	}
	for _, s := range boolInputs {
		v, err := strconv.ParseBool(s)
		add("parse_bool", record{"in": s, "value": v, "err": errText(err)})
	}
	for _, s := range quoteInputs {
		add("quote", record{"in_hex": hex.EncodeToString([]byte(s)), "out_hex": hex.EncodeToString([]byte(strconv.Quote(s)))})
	}
	for _, s := range append(quoteInputs, jsonStrings...) {
		v, _ := json.Marshal(s)
		k, _ := json.Marshal(map[string]int{s: 1})
		add("json_string", record{"in_hex": hex.EncodeToString([]byte(s)), "out_hex": hex.EncodeToString(v), "key_hex": hex.EncodeToString(k)})
	}
	rng := rand.New(rand.NewSource(20261201))
	for i := 0; i < 2000; i++ {
		b, err := json.Marshal(randomDoc(rng, 0))
		if err != nil {
			panic(err)
		}
		add("json_doc", record{"out": string(b)})
	}
	for _, s := range durationInputs {
		d, err := time.ParseDuration(s)
		add("parse_duration", record{"in_hex": hex.EncodeToString([]byte(s)), "ns": int64(d), "err_hex": hex.EncodeToString([]byte(errText(err)))})
	}
	for _, d := range formatDurations {
		add("format_duration", record{"ns": int64(d), "out": d.String()})
	}
	for _, p := range regexpInputs {
		_, err := regexp.Compile(p)
		add("regexp", record{"in_hex": hex.EncodeToString([]byte(p)), "err_hex": hex.EncodeToString([]byte(errText(err)))})
	}
	for _, m := range regexpMatchInputs {
		re, err := regexp.Compile(m[0])
		add("regexp_match", record{"pattern_hex": hex.EncodeToString([]byte(m[0])), "text_hex": hex.EncodeToString([]byte(m[1])),
			"compiles": err == nil, "match": err == nil && re.MatchString(m[1])})
	}
	for _, s := range yamlScalars {
		j, err := yaml.YAMLToJSON([]byte("k: " + s + "\n"))
		add("yaml_scalar", record{"in": s, "json": string(j), "err": errText(err)})
	}

	addZones(add)

	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: golden OUTPUT.json")
		os.Exit(2)
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err == nil {
		// Written whole and renamed, so an interrupted build never leaves half a table behind.
		tmp := os.Args[1] + ".tmp"
		if err = os.WriteFile(tmp, append(b, '\n'), 0o644); err == nil {
			err = os.Rename(tmp, os.Args[1])
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "golden:", err)
		os.Exit(1)
	}
}
