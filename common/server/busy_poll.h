#pragma once
// run_busy_polling: io_context::run() that keeps polling for a short window after each piece of
// work before it sleeps. Used by the webhook's single worker and by bench-webhook's load
// generator; any event loop that serves one request at a time can use it.
//
// With one request in flight (the API server calling the webhook once per object), each request
// finds the worker asleep in epoll_wait. Waking it, and the client it answers, costs more on a VM
// than the review itself: in the one-client benchmark about a fifth of the server's CPU went to
// the wake-ups, and a round trip took twice the CPU of one at eight clients. Polling for `window`
// after the last handler catches a client's next request without the sleep. Go's scheduler does
// the same before it parks a thread, which is part of why Volcano's webhook answers one client
// quickly at a high CPU cost.
//
// Cost: after the last request of a burst the worker spins for `window` and then sleeps as
// io_context::run() would; an idle server uses no CPU. Only worth it with one worker thread: with
// several, spinning threads would contend for the io_context's lock.
//
// Returns like run(): when the io_context is stopped or runs out of work. Exceptions from
// handlers propagate, as from run().

#include <chrono>

#include <boost/asio/io_context.hpp>

namespace vc::server {

void run_busy_polling(boost::asio::io_context& ioc, std::chrono::microseconds window);

}  // namespace vc::server
