package main

import (
	"bufio"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// `vcbench plot`: the scale case's growth as a PNG, one panel per figure, one line per
// implementation, the number of jobs along x. The input is a TSV the scale report writes:
// a header "impl jobs <figure>..." and one row per implementation and size; "n/a" is a gap.

type growthTable struct {
	figures []string                 // column names after impl and jobs
	rows    map[string][]growthPoint // by implementation
	order   []string                 // implementations in first-seen order
}

type growthPoint struct {
	jobs   float64
	values []float64 // NaN where the row said n/a
}

func runPlot(args []string) error {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	in := fs.String("in", "", "TSV: impl, jobs, then one column per figure (header row first)")
	out := fs.String("out", "", "PNG file to write")
	title := fs.String("title", "growth with the number of jobs", "title above the panels")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *in == "" || *out == "" {
		return fmt.Errorf("--in and --out are required: %w", errUsage)
	}
	f, err := os.Open(*in)
	if err != nil {
		return err
	}
	defer f.Close()
	t, err := readGrowthTable(f)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	img := drawGrowth(t, *title)
	o, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := png.Encode(o, img); err != nil {
		o.Close()
		return fmt.Errorf("write %s: %w", *out, err)
	}
	return o.Close()
}

// readGrowthTable parses the TSV; a malformed cell is an error naming its line and column.
func readGrowthTable(r io.Reader) (*growthTable, error) {
	sc := bufio.NewScanner(r)
	t := &growthTable{rows: map[string][]growthPoint{}}
	line := 0
	for sc.Scan() {
		line++
		cells := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
		if line == 1 {
			if len(cells) < 3 || cells[0] != "impl" || cells[1] != "jobs" {
				return nil, fmt.Errorf("line 1: want the header impl<TAB>jobs<TAB>figure..., got %q", sc.Text())
			}
			t.figures = cells[2:]
			continue
		}
		if len(cells) != len(t.figures)+2 {
			return nil, fmt.Errorf("line %d: %d columns, the header has %d", line, len(cells), len(t.figures)+2)
		}
		jobs, err := strconv.ParseFloat(cells[1], 64)
		if err != nil || jobs <= 0 {
			return nil, fmt.Errorf("line %d, column jobs: %q is not a positive number", line, cells[1])
		}
		p := growthPoint{jobs: jobs}
		for i, c := range cells[2:] {
			v := math.NaN()
			if c != "n/a" && c != "" {
				if v, err = strconv.ParseFloat(c, 64); err != nil {
					return nil, fmt.Errorf("line %d, column %s: %q is not a number", line, t.figures[i], c)
				}
			}
			p.values = append(p.values, v)
		}
		if _, ok := t.rows[cells[0]]; !ok {
			t.order = append(t.order, cells[0])
		}
		t.rows[cells[0]] = append(t.rows[cells[0]], p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(t.order) == 0 {
		return nil, fmt.Errorf("no rows after the header")
	}
	for _, impl := range t.order {
		sort.Slice(t.rows[impl], func(i, j int) bool { return t.rows[impl][i].jobs < t.rows[impl][j].jobs })
	}
	return t, nil
}

var plotColors = []color.RGBA{{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0x94, 0x67, 0xbd, 0xff}}

const (
	panelW, panelH = 420, 300
	marginL        = 70
	marginR        = 20
	marginT        = 40
	marginB        = 45
)

func drawGrowth(t *growthTable, title string) *image.RGBA {
	cols := 2
	rowsN := (len(t.figures) + cols - 1) / cols
	img := image.NewRGBA(image.Rect(0, 0, cols*panelW, rowsN*panelH+60))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	text(img, 10, 20, title, color.Black)
	// The legend: one colour per implementation.
	x := 10
	for i, impl := range t.order {
		c := plotColors[i%len(plotColors)]
		fillRect(img, x, 32, x+14, 40, c)
		text(img, x+18, 41, impl, color.Black)
		x += 30 + 7*len(impl)
	}
	for i, fig := range t.figures {
		ox, oy := (i%cols)*panelW, 60+(i/cols)*panelH
		drawPanel(img, t, i, fig, ox, oy)
	}
	return img
}

func drawPanel(img *image.RGBA, t *growthTable, fi int, name string, ox, oy int) {
	minX, maxX, maxY := math.Inf(1), math.Inf(-1), 0.0
	for _, impl := range t.order {
		for _, p := range t.rows[impl] {
			minX, maxX = math.Min(minX, p.jobs), math.Max(maxX, p.jobs)
			if v := p.values[fi]; !math.IsNaN(v) {
				maxY = math.Max(maxY, v)
			}
		}
	}
	if maxY == 0 {
		maxY = 1
	}
	maxY *= 1.1
	// x is logarithmic when the sizes span a factor of 5 or more (a tenth and the full load).
	logX := maxX/minX >= 5
	px := func(v float64) int {
		lo, hi, at := minX, maxX, v
		if logX {
			lo, hi, at = math.Log10(minX), math.Log10(maxX), math.Log10(v)
		}
		if hi == lo {
			return ox + marginL + (panelW-marginL-marginR)/2
		}
		return ox + marginL + int(float64(panelW-marginL-marginR)*(at-lo)/(hi-lo))
	}
	py := func(v float64) int { return oy + panelH - marginB - int(float64(panelH-marginT-marginB)*v/maxY) }
	axis := color.RGBA{0x44, 0x44, 0x44, 0xff}
	line(img, ox+marginL, oy+marginT, ox+marginL, oy+panelH-marginB, axis)
	line(img, ox+marginL, oy+panelH-marginB, ox+panelW-marginR, oy+panelH-marginB, axis)
	text(img, ox+marginL, oy+marginT-12, name, color.Black)
	for k := 0; k <= 4; k++ {
		v := maxY * float64(k) / 4
		y := py(v)
		line(img, ox+marginL-4, y, ox+marginL, y, axis)
		text(img, ox+8, y+4, strconv.FormatFloat(v, 'g', 3, 64), axis)
	}
	seen := map[float64]bool{}
	for _, impl := range t.order {
		for _, p := range t.rows[impl] {
			if !seen[p.jobs] {
				seen[p.jobs] = true
				x := px(p.jobs)
				line(img, x, oy+panelH-marginB, x, oy+panelH-marginB+4, axis)
				label := strconv.FormatFloat(p.jobs, 'f', -1, 64)
				text(img, x-3*len(label), oy+panelH-marginB+18, label, axis)
			}
		}
	}
	text(img, ox+panelW/2-20, oy+panelH-10, "jobs", axis)
	for i, impl := range t.order {
		c := plotColors[i%len(plotColors)]
		var prev *growthPoint
		for j := range t.rows[impl] {
			p := &t.rows[impl][j]
			if math.IsNaN(p.values[fi]) {
				prev = nil
				continue
			}
			x, y := px(p.jobs), py(p.values[fi])
			fillRect(img, x-3, y-3, x+3, y+3, c)
			if prev != nil {
				line(img, px(prev.jobs), py(prev.values[fi]), x, y, c)
			}
			prev = p
		}
	}
}

func text(img *image.RGBA, x, y int, s string, c color.Color) {
	d := &font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func fillRect(img *image.RGBA, x0, y0, x1, y1 int, c color.Color) {
	draw.Draw(img, image.Rect(x0, y0, x1, y1), image.NewUniform(c), image.Point{}, draw.Src)
}

// line draws with Bresenham's algorithm, two pixels thick.
func line(img *image.RGBA, x0, y0, x1, y1 int, c color.Color) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for {
		img.Set(x0, y0, c)
		img.Set(x0+1, y0, c)
		img.Set(x0, y0+1, c)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
