package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadGrowthTableSortsBySizeAndKeepsGaps(t *testing.T) {
	in := "impl\tjobs\tcpu\trss\n" +
		"ours\t11000\t3.5\t40\n" +
		"ours\t1100\t3.1\tn/a\n" +
		"reference\t1100\t12\t90\n"
	g, err := readGrowthTable(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(g.figures, ",") != "cpu,rss" || strings.Join(g.order, ",") != "ours,reference" {
		t.Fatalf("figures %v, order %v", g.figures, g.order)
	}
	ours := g.rows["ours"]
	if len(ours) != 2 || ours[0].jobs != 1100 || ours[1].jobs != 11000 {
		t.Fatalf("ours rows not sorted by jobs: %+v", ours)
	}
	if !math.IsNaN(ours[0].values[1]) || ours[0].values[0] != 3.1 {
		t.Fatalf("ours at 1100: %v, want [3.1 NaN]", ours[0].values)
	}
}

func TestReadGrowthTableNamesTheBadCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"impl\tjobs\tcpu\nours\t100\tfast\n", `line 2, column cpu: "fast" is not a number`},
		{"impl\tjobs\tcpu\nours\t0\t1\n", `line 2, column jobs: "0" is not a positive number`},
		{"impl\tjobs\tcpu\nours\t100\n", "line 2: 2 columns, the header has 3"},
		{"name\tcpu\n", "line 1: want the header"},
		{"impl\tjobs\tcpu\n", "no rows after the header"},
	} {
		_, err := readGrowthTable(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.in, err, tc.want)
		}
	}
}

func TestPlotWritesAPNG(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.tsv")
	if err := os.WriteFile(in, []byte("impl\tjobs\tcpu\nours\t100\t1\nours\t1000\t2\nreference\t100\t3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "g.png")
	if err := runPlot([]string{"--in", in, "--out", out}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Fatalf("%s is not a PNG (%d bytes)", out, len(b))
	}
}
