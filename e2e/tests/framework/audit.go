package framework

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// The local cluster's API server writes an audit log (e2e/cluster/up.sh) of the writes made by
// one identity only, the ServiceAccount FencedServiceAccount() in the stack's namespace.

// AuditLogPath is $VC_AUDIT_LOG.
func AuditLogPath() string { return os.Getenv("VC_AUDIT_LOG") }

// FencedServiceAccount is the ServiceAccount whose writes are audited: $VC_FENCED_SA.
func FencedServiceAccount() string { return envOr("VC_FENCED_SA", "vc-cpp-e2e-fenced") }

// AuditEvent is the part of an audit.k8s.io/v1 Event the tests read.
type AuditEvent struct {
	Verb       string `json:"verb"`
	RequestURI string `json:"requestURI"`
	User       struct {
		Username string `json:"username"`
	} `json:"user"`
	UserAgent string `json:"userAgent"`
	ObjectRef *struct {
		Resource  string `json:"resource"`
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"objectRef"`
	ResponseStatus *struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
	RequestReceivedTimestamp time.Time `json:"requestReceivedTimestamp"`
}

func (e AuditEvent) String() string {
	code := 0
	if e.ResponseStatus != nil {
		code = e.ResponseStatus.Code
	}
	return fmt.Sprintf("%s %s %s -> %d (received %s, %s)", e.RequestReceivedTimestamp.Format("15:04:05.000000"),
		e.Verb, e.RequestURI, code, e.User.Username, e.UserAgent)
}

// ReadAuditLog returns every event of the audit log at path by user (all users when empty).
func ReadAuditLog(path, user string) ([]AuditEvent, error) {
	if path == "" {
		return nil, fmt.Errorf("VC_AUDIT_LOG is not set: the API server's audit log is unknown")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []AuditEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e AuditEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("audit log %s: %w", path, err)
		}
		if user == "" || e.User.Username == user {
			out = append(out, e)
		}
	}
	return out, sc.Err()
}
