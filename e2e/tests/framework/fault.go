package framework

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Fault-injection helpers: the scenarios that kill and restart parts of the local cluster
// (e2e/cluster) need to know where its pid files, logs and ports are, to signal its processes,
// to start extra processes of their own, and to bring the cluster back with up.sh afterwards.
//
// Nothing here matches processes by name: a cluster process is found through the pid file
// up.sh wrote, and a process a test starts is remembered by its *exec.Cmd.

// clusterVarNames are the lib.sh settings the fault scenarios read. Asking lib.sh itself
// (rather than re-implementing its defaults) keeps one source of truth for STATE_DIR, the
// ports and the binary directories, including anything the caller overrides in the environment.
var clusterVarNames = []string{
	"repo", "STATE_DIR", "LOGS", "PIDS", "BUILD_DIR", "VOLCANO_BIN", "K8S_BIN",
	"IMPL_WEBHOOK", "IMPL_CONTROLLERS", "APISERVER_PORT",
	"CONTROLLERS_HEALTHZ_PORT", "CONTROLLERS_METRICS_PORT", "CONTAINERD_SOCK",
}

// LocalCluster is the local cluster as e2e/cluster/lib.sh resolves it from this process's
// environment (STATE_DIR, *_PORT, BUILD_DIR, IMPL_*). It is read-only after LoadLocalCluster
// and may be used from any goroutine.
type LocalCluster struct {
	Repo string
	vars map[string]string
}

// LoadLocalCluster sources e2e/cluster/lib.sh in bash and records its settings. It fails the
// test when the repository or lib.sh cannot be found.
func LoadLocalCluster(t testing.TB) *LocalCluster {
	t.Helper()
	repo, err := RepoRoot()
	if err != nil {
		t.Fatalf("local cluster: %v", err)
	}
	lib := filepath.Join(repo, "e2e", "cluster", "lib.sh")
	script := `source "$1"; shift; for v in "$@"; do printf '%s=%s\n' "$v" "${!v}"; done`
	args := append([]string{"-c", script, "lib", lib}, clusterVarNames...)
	cmd := exec.Command("bash", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("local cluster: source %s: %v\n%s", lib, err, stderr.String())
	}
	vars := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			vars[k] = v
		}
	}
	return &LocalCluster{Repo: repo, vars: vars}
}

// Var returns a lib.sh setting by name (one of clusterVarNames); a name that was not read is
// a bug in the test and panics.
func (c *LocalCluster) Var(name string) string {
	v, ok := c.vars[name]
	if !ok {
		panic(fmt.Sprintf("LocalCluster.Var(%q): not one of the settings read from lib.sh", name))
	}
	return v
}

// StateDir is the cluster's state directory ($STATE_DIR, default <repo>/.state).
func (c *LocalCluster) StateDir() string { return c.Var("STATE_DIR") }

// LogPath is where a process named name logs ($STATE_DIR/logs/<name>.log).
func (c *LocalCluster) LogPath(name string) string {
	return filepath.Join(c.Var("LOGS"), name+".log")
}

// Pid reads the pid file up.sh wrote for component name (etcd, kube-apiserver, controllers, ...).
func (c *LocalCluster) Pid(name string) (int, error) {
	path := filepath.Join(c.Var("PIDS"), name+".pid")
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("pid of %s: %w", name, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		return 0, fmt.Errorf("pid file %s holds %q, not a pid", path, string(b))
	}
	return pid, nil
}

// AlivePid returns the pid of component name and fails the test unless that process runs.
func (c *LocalCluster) AlivePid(t testing.TB, name string) int {
	t.Helper()
	pid, err := c.Pid(name)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if !ProcessAlive(pid) {
		t.Fatalf("component %s (pid %d from its pid file) is not running", name, pid)
	}
	return pid
}

// Up runs e2e/cluster/up.sh with this process's environment, so the same STATE_DIR, ports and
// IMPL_* choices apply; up.sh restarts every component that is not alive. The script's output
// is logged; a failure fails the test (t.Errorf, so it is safe inside a cleanup).
func (c *LocalCluster) Up(t testing.TB) bool {
	t.Helper()
	start := time.Now()
	cmd := exec.Command(filepath.Join(c.Repo, "e2e", "cluster", "up.sh"))
	cmd.Env = os.Environ()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("e2e/cluster/up.sh failed after %v: %v\n%s", time.Since(start).Round(time.Millisecond),
			err, Tail(string(out), 40))
		return false
	}
	t.Logf("e2e/cluster/up.sh: ok after %v", time.Since(start).Round(time.Millisecond))
	return true
}

// RestoreAtCleanup registers up.sh at t's cleanup, so a component the test killed or stopped
// is running again whatever the test's outcome. Register it before anything that should run
// while the cluster is still broken (cleanups run last-registered first).
func (c *LocalCluster) RestoreAtCleanup(t testing.TB) {
	t.Cleanup(func() { c.Up(t) })
}

// ControllersHealthz is the URL of the cluster controller-manager's /healthz.
func (c *LocalCluster) ControllersHealthz() string {
	return "http://127.0.0.1:" + c.Var("CONTROLLERS_HEALTHZ_PORT") + "/healthz"
}

// ProcessAlive reports whether a process with pid exists and is not a zombie.
func ProcessAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name, which may itself contain spaces.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// KillPid sends sig to pid and fails the test if it cannot be delivered.
func KillPid(t testing.TB, pid int, sig syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(pid, sig); err != nil {
		t.Fatalf("kill -%d %d: %v", int(sig), pid, err)
	}
}

// WaitPidGone waits until pid no longer exists at all. A killed process stays a zombie until
// its parent (init, for the cluster's setsid'd components) reaps it, and up.sh's `alive`
// (kill -0) counts a zombie as running: calling up.sh before the reap would skip the restart.
func WaitPidGone(t testing.TB, pid int, timeout time.Duration) {
	t.Helper()
	WaitFor(t, fmt.Sprintf("process %d gone", pid), timeout, func() (bool, string, error) {
		if syscall.Kill(pid, 0) == nil {
			state := "running"
			if !ProcessAlive(pid) {
				state = "exited, not yet reaped"
			}
			return false, state, nil
		}
		return true, "gone", nil
	})
}

// ProcessCmdline returns the argv of a running process (from /proc).
func ProcessCmdline(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return nil, err
	}
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	if len(args) == 0 || args[0] == "" {
		return nil, fmt.Errorf("process %d has an empty command line", pid)
	}
	return args, nil
}

// Process is a process a test started. Its output goes to a log file; it runs in its own
// session so signals meant for the test never reach it. Methods may be called from any
// goroutine.
type Process struct {
	Name string
	Log  string
	cmd  *exec.Cmd
	done chan struct{} // closed once the process has exited and been reaped
}

// StartProcess starts argv with stdout and stderr appended to logPath (truncated first) and
// registers a cleanup that kills it if it still runs when the test ends.
func StartProcess(t testing.TB, name, logPath string, argv []string) *Process {
	t.Helper()
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatalf("start %s: open log: %v", name, err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("start %s (%s): %v", name, argv[0], err)
	}
	p := &Process{Name: name, Log: logPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		// Wait reaps the process; its exit status is visible in the log and not asserted.
		_ = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	t.Logf("started %s (pid %d), log %s", name, p.Pid(), logPath)
	t.Cleanup(func() { p.Stop(t, 10*time.Second) })
	return p
}

// Pid is the process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited reports whether the process has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Kill sends SIGKILL and waits until the process has been reaped.
func (p *Process) Kill(t testing.TB) {
	t.Helper()
	if p.Exited() {
		return
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil && !p.Exited() {
		t.Fatalf("kill -9 %s (pid %d): %v", p.Name, p.Pid(), err)
	}
	<-p.done
}

// Stop sends SIGTERM, then SIGKILL if the process has not exited within grace, and waits
// until it has been reaped. It is safe to call on a process that already exited.
func (p *Process) Stop(t testing.TB, grace time.Duration) {
	if p.Exited() {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM) // an error means it exited meanwhile
	select {
	case <-p.done:
	case <-time.After(grace):
		t.Logf("%s (pid %d) ignored SIGTERM for %v; killing it", p.Name, p.Pid(), grace)
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.done
	}
}

// ReadLog returns the process's log so far.
func (p *Process) ReadLog() string {
	b, err := os.ReadFile(p.Log)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", p.Log, err)
	}
	return string(b)
}

// FreePort returns a TCP port on 127.0.0.1 that nothing listened on a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// HTTPGet fetches url with a short timeout and returns the status code and body.
func HTTPGet(url string) (int, string, error) {
	client := http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

// WaitHealthy waits until url answers 200.
func WaitHealthy(t testing.TB, url string, timeout time.Duration) {
	t.Helper()
	WaitFor(t, url+" healthy", timeout, func() (bool, string, error) {
		code, body, err := HTTPGet(url)
		if err != nil {
			return false, "", err
		}
		return code == http.StatusOK, fmt.Sprintf("HTTP %d %q", code, Tail(body, 3)), nil
	})
}

// ErrNoSuchFlag is returned by ReplaceFlag when argv lacks the flag.
var ErrNoSuchFlag = errors.New("flag not found")

// ReplaceFlag returns argv with the value of --name=... replaced by value (the flag must be
// written in the --name=value form, as e2e/cluster/up.sh does).
func ReplaceFlag(argv []string, name, value string) ([]string, error) {
	out := append([]string(nil), argv...)
	prefix := "--" + name + "="
	for i, a := range out {
		if strings.HasPrefix(a, prefix) {
			out[i] = prefix + value
			return out, nil
		}
	}
	return nil, fmt.Errorf("--%s in %v: %w", name, argv, ErrNoSuchFlag)
}

// Tail returns the last n lines of s (a log or a command's output), for failure messages.
func Tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
