/* The pod sandbox's process: holds the pod's namespaces open and does nothing else.
 *
 * It is PID 1 of the sandbox, so it must (a) exit on the signals the runtime stops it with
 * (PID 1 has no default signal actions: an unhandled SIGTERM would be ignored) and (b) reap
 * any orphan that the kernel reparents to it, or zombies would pile up in shared-PID pods. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_stop(int sig) { _exit(128 + sig); }

static void on_child(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "-v") == 0) {
    puts("vc-cpp pause");
    return 0;
  }
  struct sigaction stop = {.sa_handler = on_stop};
  struct sigaction child = {.sa_handler = on_child, .sa_flags = SA_NOCLDSTOP};
  if (sigaction(SIGINT, &stop, NULL) < 0 || sigaction(SIGTERM, &stop, NULL) < 0 ||
      sigaction(SIGCHLD, &child, NULL) < 0) {
    perror("sigaction");
    return 1;
  }
  for (;;) pause();
}
