package main

import (
	"context"
	"fmt"
	"sync"
)

// createAll calls create(ctx, i) for i in [0, n) from `concurrency` goroutines and returns when
// every call has returned. The first error stops the calls not yet started (a benchmark with a
// failed create measures nothing) and is returned with the number of failed calls; if ctx ends
// before every call was started, that is an error too.
func createAll(parent context.Context, n, concurrency int, create func(context.Context, int) error) (int, error) {
	if concurrency < 1 {
		concurrency = 1
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	next := make(chan int)
	var (
		mu       sync.Mutex
		started  int
		failed   int
		firstErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				// An index handed over just as the context ended is dropped, not created.
				if ctx.Err() != nil {
					continue
				}
				mu.Lock()
				started++
				mu.Unlock()
				if err := create(ctx, i); err != nil {
					mu.Lock()
					failed++
					if firstErr == nil {
						firstErr = fmt.Errorf("create #%d: %w", i, err)
						cancel()
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	if firstErr == nil && started < n {
		firstErr = fmt.Errorf("creates interrupted after %d of %d: %w", started, n, parent.Err())
	}
	return failed, firstErr
}
