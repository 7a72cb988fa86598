package framework

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
)

// FreezableProxy is a TCP proxy in front of the API server that a test can freeze: while frozen
// nothing passes either way, as in a network partition between a client and the server. What a
// client sends meanwhile is held, as the network would hold unacknowledged segments: a
// connection the client resets (RST) loses it, the way a reset discards data in flight; a
// connection the client closes in order, or keeps open, delivers it once thawed. A client that
// abandons a request by resetting its connection is therefore sure the request never reaches the
// server; one that merely closes it, or waits, is not.
type FreezableProxy struct {
	ln       net.Listener
	upstream string

	mu     sync.Mutex
	thawed *sync.Cond
	frozen bool
	closed bool
	conns  map[*proxyConn]struct{}
	stats  ProxyStats
}

// ProxyStats counts what happened to the connections through the proxy.
type ProxyStats struct {
	Connections int // accepted
	// Connections on which the client sent bytes while frozen.
	SentWhileFrozen int
	// Connections the client reset while frozen: their held bytes were dropped.
	ResetWhileFrozen int
	// Connections whose held bytes were delivered at the thaw, and how many of those the server
	// has since answered (sent bytes back, or closed).
	LateDelivered, LateAnswered int
}

type proxyConn struct {
	client, server *net.TCPConn
	wmu            sync.Mutex // serialises writes to server
	held           []byte     // client bytes not yet written to server (guarded by FreezableProxy.mu)
	sentFrozen     bool
	clientReset    bool
	clientEOF      bool
	lateUnanswered bool
}

// StartFreezableProxy listens on listenAddr ("10.88.0.1:0") and forwards to upstream.
func StartFreezableProxy(listenAddr, upstream string) (*FreezableProxy, error) {
	ln, err := net.Listen("tcp", listenAddr)
	if err != nil {
		return nil, err
	}
	p := &FreezableProxy{ln: ln, upstream: upstream, conns: map[*proxyConn]struct{}{}}
	p.thawed = sync.NewCond(&p.mu)
	go p.accept()
	return p, nil
}

// Addr is the address clients dial.
func (p *FreezableProxy) Addr() *net.TCPAddr { return p.ln.Addr().(*net.TCPAddr) }

// Stats returns a copy of the counters.
func (p *FreezableProxy) Stats() ProxyStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

func (s ProxyStats) String() string {
	return fmt.Sprintf("connections=%d sent-while-frozen=%d reset-while-frozen=%d late-delivered=%d late-answered=%d",
		s.Connections, s.SentWhileFrozen, s.ResetWhileFrozen, s.LateDelivered, s.LateAnswered)
}

// Freeze stops all traffic.
func (p *FreezableProxy) Freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.frozen = true
}

// Thaw lets traffic pass again: held bytes go to the server first, then the end of stream of
// connections the client closed; connections the client reset are reset towards the server.
func (p *FreezableProxy) Thaw() {
	p.mu.Lock()
	p.frozen = false
	type flush struct {
		c    *proxyConn
		data []byte
	}
	var flushes []flush
	for c := range p.conns {
		if c.clientReset {
			c.held = nil
			_ = c.server.SetLinger(0)
			_ = c.server.Close()
			delete(p.conns, c)
			continue
		}
		if len(c.held) > 0 || c.clientEOF {
			c.wmu.Lock() // held until written, so the pump's later writes follow these bytes
			if len(c.held) > 0 {
				p.stats.LateDelivered++
				c.lateUnanswered = true
			}
			flushes = append(flushes, flush{c, c.held})
			c.held = nil
		}
	}
	p.thawed.Broadcast()
	p.mu.Unlock()
	for _, f := range flushes {
		if len(f.data) > 0 {
			_, _ = f.c.server.Write(f.data)
		}
		if f.c.clientEOF {
			_ = f.c.server.CloseWrite()
		}
		f.c.wmu.Unlock()
	}
}

// Close stops accepting and closes every connection.
func (p *FreezableProxy) Close() {
	p.mu.Lock()
	p.closed = true
	p.frozen = false
	for c := range p.conns {
		_ = c.client.Close()
		_ = c.server.Close()
	}
	p.thawed.Broadcast()
	p.mu.Unlock()
	_ = p.ln.Close()
}

func (p *FreezableProxy) accept() {
	for {
		conn, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.upstream)
		if err != nil {
			_ = conn.Close()
			continue
		}
		c := &proxyConn{client: conn.(*net.TCPConn), server: server.(*net.TCPConn)}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			_ = conn.Close()
			_ = server.Close()
			return
		}
		p.conns[c] = struct{}{}
		p.stats.Connections++
		p.mu.Unlock()
		go p.clientToServer(c)
		go p.serverToClient(c)
	}
}

func isReset(err error) bool { return errors.Is(err, syscall.ECONNRESET) }

// clientToServer keeps reading even while frozen, so that a reset is seen and the held bytes of
// that connection dropped.
func (p *FreezableProxy) clientToServer(c *proxyConn) {
	buf := make([]byte, 32*1024)
	for {
		n, err := c.client.Read(buf)
		p.mu.Lock()
		if n > 0 {
			c.held = append(c.held, buf[:n]...)
			if p.frozen && !c.sentFrozen {
				c.sentFrozen = true
				p.stats.SentWhileFrozen++
			}
		}
		if err != nil {
			if isReset(err) {
				c.clientReset = true
			} else {
				c.clientEOF = true
			}
			if p.frozen {
				if c.clientReset {
					p.stats.ResetWhileFrozen++
				}
				p.mu.Unlock() // Thaw finishes this connection
				return
			}
		}
		var out []byte
		if !p.frozen {
			out, c.held = c.held, nil
		}
		p.mu.Unlock()
		if len(out) > 0 {
			c.wmu.Lock()
			_, _ = c.server.Write(out)
			c.wmu.Unlock()
		}
		if err != nil {
			c.wmu.Lock()
			if c.clientReset {
				_ = c.server.SetLinger(0)
				_ = c.server.Close()
			} else {
				_ = c.server.CloseWrite()
			}
			c.wmu.Unlock()
			return
		}
	}
}

func (p *FreezableProxy) serverToClient(c *proxyConn) {
	buf := make([]byte, 32*1024)
	for {
		n, err := c.server.Read(buf)
		p.mu.Lock()
		for p.frozen && !p.closed {
			p.thawed.Wait()
		}
		if c.lateUnanswered && (n > 0 || err != nil) {
			c.lateUnanswered = false
			p.stats.LateAnswered++
		}
		p.mu.Unlock()
		if n > 0 {
			if _, werr := c.client.Write(buf[:n]); werr != nil && err == nil {
				err = werr
			}
		}
		if err != nil {
			if err != io.EOF {
				_ = c.client.SetLinger(0)
			}
			_ = c.client.Close()
			_ = c.server.Close()
			p.mu.Lock()
			delete(p.conns, c)
			p.mu.Unlock()
			return
		}
	}
}
