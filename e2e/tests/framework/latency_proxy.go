package framework

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// LatencyProxy is a TCP proxy in front of the API server that delays every byte by a latency
// the test sets at any moment, in both directions, as a slow or far-away API server would: a
// chunk read at time t is written at t + the latency in force when it was read. Bytes keep their
// order; throughput is not limited (a watch stream arrives late, not slower).
type LatencyProxy struct {
	ln       net.Listener
	upstream string
	latency  atomic.Int64 // nanoseconds

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
	count  int
}

// StartLatencyProxy listens on listenAddr ("10.88.0.1:0") and forwards to upstream, with no
// latency until SetLatency.
func StartLatencyProxy(listenAddr, upstream string) (*LatencyProxy, error) {
	ln, err := net.Listen("tcp", listenAddr)
	if err != nil {
		return nil, err
	}
	p := &LatencyProxy{ln: ln, upstream: upstream, conns: map[net.Conn]struct{}{}}
	go p.accept()
	return p, nil
}

// Addr is the address clients dial.
func (p *LatencyProxy) Addr() *net.TCPAddr { return p.ln.Addr().(*net.TCPAddr) }

// SetLatency delays every chunk read from now on by d (0: none).
func (p *LatencyProxy) SetLatency(d time.Duration) { p.latency.Store(int64(d)) }

// Connections is how many client connections the proxy has accepted.
func (p *LatencyProxy) Connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count
}

// Close stops accepting and closes every connection.
func (p *LatencyProxy) Close() {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	_ = p.ln.Close()
}

func (p *LatencyProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *LatencyProxy) accept() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.upstream)
		if err != nil {
			_ = client.Close()
			continue
		}
		if !p.track(client) || !p.track(server) {
			_ = client.Close()
			_ = server.Close()
			return
		}
		p.mu.Lock()
		p.count++
		p.mu.Unlock()
		go p.pipe(client, server)
		go p.pipe(server, client)
	}
}

type delayedChunk struct {
	due  time.Time
	data []byte
}

// pipe copies from → to, each chunk held until its due time. The reader never waits for the
// writer's delay, so chunks read 1 ms apart are written 1 ms apart.
func (p *LatencyProxy) pipe(from, to net.Conn) {
	chunks := make(chan delayedChunk, 4096)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32*1024)
			n, err := from.Read(buf)
			if n > 0 {
				chunks <- delayedChunk{time.Now().Add(time.Duration(p.latency.Load())), buf[:n]}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range chunks {
		time.Sleep(time.Until(c.due))
		if _, err := to.Write(c.data); err != nil {
			break
		}
	}
	// The reading side ended (or the write failed): end both, as a plain relay would.
	_ = from.Close()
	_ = to.Close()
	p.mu.Lock()
	delete(p.conns, from)
	delete(p.conns, to)
	p.mu.Unlock()
	for range chunks { // let the reader exit if it is blocked on a full channel
	}
}
