// Command lagproxy stands between a controller-manager and the API server and delays every watch
// stream by a fixed time, so that the controller's informer caches lag behind the API server the
// way a slow watch does in a busy cluster. Everything else (lists, gets, writes) passes at once.
//
// It is the e2e harness's lagging-cache mode (e2e/cluster/up.sh with CONTROLLER_WATCH_LAG): a
// controller that decides on a cache older than its own last write (drops, recreates or reports
// missing an object it has just written) fails the suite's tests there instead of in a user's
// cluster. The proxy serves TLS on loopback with a certificate the client already trusts (the API
// server's own pair: client-go sends no credentials over plain HTTP) and forwards over TLS to the
// API server; the controller's token travels in the Authorization header, as it would directly.
//
// Each watch response body is read as it arrives; every piece is handed to the client no sooner
// than its arrival time plus the stream's delay, in arrival order. The delay therefore shifts the
// stream in time without piling up: a burst of events arrives delayed by the same amount, not one
// delay per event.
//
// Each stream draws its own delay between (1 - spread) x watch-delay and watch-delay. Streams of
// different resources then lag by different amounts, as they do under load: a controller can see
// the update of one object before the creation of another that happened earlier (a CronJob's
// status naming a Job the Job cache has not seen yet). One delay for every stream would keep the
// order between streams and hide exactly those races. The draws are logged with the stream's path.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on (HTTPS)")
	certFile := flag.String("tls-cert", "", "serving certificate (PEM)")
	keyFile := flag.String("tls-key", "", "serving key (PEM)")
	upstream := flag.String("upstream", "", "the API server's URL (https://host:port)")
	caFile := flag.String("ca", "", "CA bundle that verifies the API server")
	delay := flag.Duration("watch-delay", 300*time.Millisecond, "how long each piece of a watch stream is held, at most")
	spread := flag.Float64("watch-delay-spread", 0.9, "each stream is held between (1 - spread) x watch-delay and watch-delay (0: all alike)")
	seed := flag.Int64("seed", 0, "seed of the per-stream draws (0: from the clock)")
	flag.Parse()
	if *upstream == "" || *caFile == "" || *certFile == "" || *keyFile == "" {
		fmt.Fprintln(os.Stderr, "lagproxy: --upstream, --ca, --tls-cert and --tls-key are required")
		os.Exit(2)
	}
	target, err := url.Parse(*upstream)
	if err != nil || target.Scheme != "https" || target.Host == "" {
		fmt.Fprintf(os.Stderr, "lagproxy: --upstream %q: want https://host:port\n", *upstream)
		os.Exit(2)
	}
	pem, err := os.ReadFile(*caFile)
	if err != nil {
		fmt.Fprintf(os.Stderr, "lagproxy: --ca: %v\n", err)
		os.Exit(2)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		fmt.Fprintf(os.Stderr, "lagproxy: --ca %s: no certificate in it\n", *caFile)
		os.Exit(2)
	}
	serving, err := tls.LoadX509KeyPair(*certFile, *keyFile)
	if err != nil {
		fmt.Fprintf(os.Stderr, "lagproxy: --tls-cert/--tls-key: %v\n", err)
		os.Exit(2)
	}
	if *delay < 0 {
		fmt.Fprintln(os.Stderr, "lagproxy: --watch-delay must not be negative")
		os.Exit(2)
	}
	if *spread < 0 || *spread > 1 {
		fmt.Fprintln(os.Stderr, "lagproxy: --watch-delay-spread must be between 0 and 1")
		os.Exit(2)
	}
	if *seed == 0 {
		*seed = time.Now().UnixNano()
	}
	var drawMu sync.Mutex
	draws := rand.New(rand.NewSource(*seed))
	streamDelay := func() time.Duration {
		drawMu.Lock()
		defer drawMu.Unlock()
		return time.Duration(float64(*delay) * (1 - *spread*draws.Float64()))
	}

	var watches, delayed atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: pool},
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
	}
	proxy.FlushInterval = -1 // watch events reach the client as soon as their delay is over
	proxy.ModifyResponse = func(resp *http.Response) error {
		if !isWatch(resp.Request.URL) || resp.StatusCode != http.StatusOK {
			return nil
		}
		watches.Add(1)
		d := streamDelay()
		log.Printf("lagproxy: watch %s held %s", resp.Request.URL.Path, d.Round(time.Millisecond))
		resp.Body = newLaggingBody(resp.Body, d, &delayed)
		return nil
	}
	proxy.ErrorLog = log.New(os.Stderr, "lagproxy: ", log.LstdFlags)

	ln, err := tls.Listen("tcp", *listen, &tls.Config{Certificates: []tls.Certificate{serving},
		NextProtos: []string{"http/1.1"}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "lagproxy: %v\n", err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: proxy, ReadHeaderTimeout: 10 * time.Second}
	log.Printf("lagproxy: listening on %s, forwarding to %s, watch streams delayed by %s to %s (seed %d)",
		ln.Addr(), target, time.Duration(float64(*delay)*(1-*spread)).Round(time.Millisecond), *delay, *seed)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		log.Printf("lagproxy: stopping; %d watch streams, %d pieces delayed", watches.Load(), delayed.Load())
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx) // open watches are cut: their clients resume elsewhere
		os.Exit(0)
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintf(os.Stderr, "lagproxy: %v\n", err)
		os.Exit(1)
	}
}

// isWatch: a list call that asks for a stream of changes (?watch=true or ?watch=1), or the old
// /watch/ path form.
func isWatch(u *url.URL) bool {
	switch u.Query().Get("watch") {
	case "true", "1":
		return true
	}
	return slices.Contains(strings.Split(u.Path, "/"), "watch")
}

// piece is what one read of the upstream body returned, and when.
type piece struct {
	data []byte
	at   time.Time
	err  error
}

// laggingBody hands out the upstream body's pieces no sooner than their arrival plus the delay.
// A reader goroutine stamps each piece as it arrives; Read waits for the head piece's time.
type laggingBody struct {
	upstream io.ReadCloser
	delay    time.Duration
	pieces   chan piece
	head     []byte
	err      error
	done     chan struct{}
	counter  *atomic.Int64
}

func newLaggingBody(upstream io.ReadCloser, delay time.Duration, counter *atomic.Int64) *laggingBody {
	b := &laggingBody{upstream: upstream, delay: delay, pieces: make(chan piece, 4096),
		done: make(chan struct{}), counter: counter}
	go b.pump()
	return b
}

func (b *laggingBody) pump() {
	defer close(b.pieces)
	for {
		buf := make([]byte, 32*1024)
		n, err := b.upstream.Read(buf)
		now := time.Now()
		if n > 0 {
			select {
			case b.pieces <- piece{data: buf[:n], at: now}:
			case <-b.done:
				return
			}
		}
		if err != nil {
			select {
			case b.pieces <- piece{err: err, at: now}:
			case <-b.done:
			}
			return
		}
	}
}

func (b *laggingBody) Read(p []byte) (int, error) {
	if len(b.head) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		pc, ok := <-b.pieces
		if !ok {
			return 0, io.EOF
		}
		if wait := time.Until(pc.at.Add(b.delay)); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-b.done:
				t.Stop()
				return 0, io.ErrClosedPipe
			}
		}
		if pc.err != nil {
			b.err = pc.err
			return 0, pc.err
		}
		b.counter.Add(1)
		b.head = pc.data
	}
	n := copy(p, b.head)
	b.head = b.head[n:]
	return n, nil
}

func (b *laggingBody) Close() error {
	select {
	case <-b.done:
	default:
		close(b.done)
	}
	return b.upstream.Close()
}
