package main

import (
	"encoding/json"
	"testing"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int{"3145728": 3145728, "3Mi": 3 << 20, "2.5Ki": 2560, "64K": 64000, "3M": 3000000} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1Mi", "3Gi", "lots"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}

// The bomb is a valid AdmissionReview of at most the asked size, nearly all of it {} elements.
func TestArrayBombIsAReviewOfTheAskedSize(t *testing.T) {
	const size = 64 << 10
	body := arrayBomb(size)
	if len(body) > size || len(body) < size-3 {
		t.Fatalf("%d bytes, want %d (within 3)", len(body), size)
	}
	var review struct {
		Kind    string
		Request struct {
			UID    string
			Object []map[string]any
		}
	}
	if err := json.Unmarshal(body, &review); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if review.Kind != "AdmissionReview" || review.Request.UID == "" || len(review.Request.Object) < size/4 {
		t.Errorf("kind %q, uid %q, %d objects; want an AdmissionReview of about %d objects",
			review.Kind, review.Request.UID, len(review.Request.Object), size/3)
	}
}
