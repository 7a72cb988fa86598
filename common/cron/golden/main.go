// Command golden writes, as one JSON document (the file named by its argument), what
// robfig/cron v3.0.1 answers for a table of schedules: ParseStandard's error, and for those that
// parse, Next from a set of instants. common/cron's golden_test.cpp compares every answer with
// ours. Run with TZ=UTC so that schedules without a zone prefix (robfig's time.Local) are in UTC,
// as the C++ test reads them.
package main

import (
	"encoding/json"
	"os"
	"time"

	"github.com/robfig/cron/v3"
)

// Schedules: accepted and refused, descriptors, zone prefixes, day-of-month/day-of-week rules,
// and zones whose DST changes make days 23 or 25 hours long or skip a whole day.
var specs = []string{
	"* * * * *", "*/5 * * * *", "0 * * * *", "30 2 * * *", "0 0 1 1 *", "0 0 29 2 *", "0 0 30 2 *",
	"0 0 31 * *", "15 10 * * MON-FRI", "0 9 1,15 * *", "0 9 1 * MON", "0 9 * * sun", "0 12 * JAN,jul *",
	"5-10/2 * * * *", "5/15 * * * *", "*/1 * * * *", "0 */6 * * *", "? ? ? ? ?", "0 0 * * 0,6",
	"59 23 31 12 *", "0 0 1 */3 *", "0 0 ? * 1-5", "0 0 * * 7", "1,2,,3 * * * *",
	"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly",
	"@every 1h30m", "@every 90s", "@every 500ms", "@every 1.5s", "@every -1s", "@every x", "@reboot",
	"TZ=America/New_York 30 2 * * *", "CRON_TZ=America/New_York 0 1 * * *",
	"TZ=America/New_York 0 0 * * *", "TZ=Europe/London 30 1 * * *", "TZ=Australia/Lord_Howe 15 2 * * *",
	"TZ=Pacific/Apia 0 12 * * *", "TZ=Asia/Kolkata 0 9 * * 1", "TZ=America/Sao_Paulo 0 0 * * *",
	"TZ=UTC @daily", "TZ=America/New_York @every 1h", "TZ=America/Nowhere * * * * *", "TZ=  * * * * *",
	"", "* * * *", "* * * * * *", "60 * * * *", "* 24 * * *", "* * 0 * *", "* * 32 * *", "* * * 13 *",
	"* * * * 8", "5-3 * * * *", "1-2-3 * * * *", "*/0 * * * *", "1/2/3 * * * *", "a * * * *",
	"-1 * * * *", "* * * foo *", "99999999999999999999 * * * *", "+5 * * * *", "05 * * * *",
}

// Instants (Unix seconds) Next starts from: ordinary times, the ends of months and years, leap
// days, and the nights around DST changes in the zones above.
var froms = []string{
	"2024-01-15T10:07:13Z", "2024-02-28T23:59:59Z", "2024-02-29T12:00:00Z", "2023-12-31T23:59:59Z",
	"2025-03-09T06:00:00Z", "2024-03-10T06:30:00Z", "2024-03-10T07:30:00Z", "2024-11-03T05:00:00Z",
	"2024-11-03T05:59:59Z", "2024-11-03T06:30:00Z", "2024-03-31T00:30:00Z", "2024-10-27T00:45:00Z",
	"2024-04-06T14:00:00Z", "2024-10-05T15:00:00Z", "2011-12-29T10:00:00Z", "2011-12-30T09:59:59Z",
	"2019-11-02T02:00:00Z", "1970-01-01T00:00:00Z", "2038-01-19T03:14:07Z", "2099-12-31T23:00:00Z",
	"2024-06-30T23:59:00Z", "2024-01-15T10:07:00Z",
}

type nextRecord struct {
	From int64 `json:"from"`
	Next int64 `json:"next"`
	Zero bool  `json:"zero"` // robfig answered the zero time (no match within five years)
}

type specRecord struct {
	Spec  string       `json:"spec"`
	Err   string       `json:"err"`
	Nexts []nextRecord `json:"nexts,omitempty"`
}

func main() {
	var out []specRecord
	for _, spec := range specs {
		r := specRecord{Spec: spec}
		sched, err := parse(spec)
		if err != nil {
			r.Err = err.Error()
			out = append(out, r)
			continue
		}
		for _, f := range froms {
			from, err := time.Parse(time.RFC3339, f)
			if err != nil {
				panic(err)
			}
			next := sched.Next(from.Local())
			r.Nexts = append(r.Nexts, nextRecord{From: from.Unix(), Next: next.Unix(), Zero: next.IsZero()})
		}
		out = append(out, r)
	}
	data, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(os.Args[1], data, 0o644); err != nil {
		panic(err)
	}
}

// parse is ParseStandard, with robfig's panic on a zone prefix without a schedule reported as
// the error our parser gives.
func parse(spec string) (s cron.Schedule, err error) {
	defer func() {
		if recover() != nil {
			s, err = nil, errMissingSchedule{}
		}
	}()
	return cron.ParseStandard(spec)
}

type errMissingSchedule struct{}

func (errMissingSchedule) Error() string { return "missing schedule after time zone" }
