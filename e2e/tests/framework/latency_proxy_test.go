package framework

import (
	"bufio"
	"net"
	"testing"
	"time"
)

// An echo server behind the proxy: a line's round trip takes twice the latency (there and back),
// and lines sent after the latency is turned off pass at once.
func TestLatencyProxyDelaysBothWays(t *testing.T) {
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		c, err := echo.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			_, _ = c.Write(line)
		}
	}()
	p, err := StartLatencyProxy("127.0.0.1:0", echo.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	roundTrip := func() time.Duration {
		t0 := time.Now()
		if _, err := c.Write([]byte("ping\n")); err != nil {
			t.Fatal(err)
		}
		if line, err := r.ReadString('\n'); err != nil || line != "ping\n" {
			t.Fatalf("echo: %q %v", line, err)
		}
		return time.Since(t0)
	}
	p.SetLatency(150 * time.Millisecond)
	if d := roundTrip(); d < 300*time.Millisecond || d > 2*time.Second {
		t.Errorf("round trip with 150 ms latency each way took %v", d)
	}
	p.SetLatency(0)
	if d := roundTrip(); d > 100*time.Millisecond {
		t.Errorf("round trip without latency took %v", d)
	}
	if p.Connections() != 1 {
		t.Errorf("connections %d, want 1", p.Connections())
	}
}
