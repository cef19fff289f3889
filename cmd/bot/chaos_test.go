package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store/etcdstore"
)

// chaosChild, when set, makes this test binary a `bot serve` replica: the
// chaos test starts three of them and kills them with SIGKILL.
const chaosChild = "KEPBOT_CHAOS_REPLICA"

func TestMain(m *testing.M) {
	if os.Getenv(botChild) != "" {
		main() // this test binary is `bot` itself: see botCommand
	}
	if os.Getenv(chaosChild) != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := Main(ctx, []string{"serve", "--config", os.Getenv(chaosChild)}, stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, getenv: os.Getenv})
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// chaosRuns is how many times each chaos scenario runs: 1, or
// $KEPBOT_CHAOS_RUNS (the acceptance run is 20).
func chaosRuns(t *testing.T) int {
	if v := os.Getenv("KEPBOT_CHAOS_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("KEPBOT_CHAOS_RUNS=%q is not a positive number", v)
		}
		return n
	}
	return 1
}

// TestReplicasChaos runs three `bot serve` replicas as processes on one
// embedded etcd, with 120 channels (60 Slack over 6 workspaces, 60
// Discord) subscribed, and SIGKILLs the leader twice in the middle of the
// digests (restarting it each time), or in the third scenario a follower.
// It asserts that every subscription survives and every channel shows
// every part of its digest exactly once. In the scenario "leader-noscope"
// the Slack app may not read channel history, so a new leader cannot look
// for a post in doubt: there Slack may show a part twice, only for a
// delivery the new leader found in doubt and at most once per leader
// killed; Discord never.
func TestReplicasChaos(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills replica processes; run without -short")
	}
	for _, mode := range []string{"leader", "leader-noscope", "follower"} {
		for i := range chaosRuns(t) {
			t.Run(fmt.Sprintf("%s-%02d", mode, i+1), func(t *testing.T) { chaosRun(t, mode) })
		}
	}
}

type chaosCluster struct {
	t      *testing.T
	srv    *etcdtest.Server
	api    string
	dir    string
	config string
	cli    *clientv3.Client
	procs  map[string]*exec.Cmd
}

func chaosRun(t *testing.T, mode string) {
	ctx := context.Background()
	srv := etcdtest.New(t)
	fake := newChaosPlatforms()
	fake.noHistory = mode == "leader-noscope"
	api := httptest.NewServer(fake.handler())
	defer api.Close()
	c := &chaosCluster{t: t, srv: srv, api: api.URL, dir: t.TempDir(), procs: map[string]*exec.Cmd{}}
	c.config = filepath.Join(c.dir, "bot.yaml")
	if err := os.WriteFile(c.config, []byte("digests:\n  slack_workspace_rate: 40\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	shared, err := etcdstore.Open(ctx, etcdstore.Config{Endpoints: srv.Endpoints})
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	c.cli = shared.Client()
	var subs []digest.ChannelRef
	for i := range 60 {
		subs = append(subs, digest.ChannelRef{Platform: "slack", Workspace: fmt.Sprintf("T%d", 1+i%6), Channel: fmt.Sprintf("C%08d", i)},
			digest.ChannelRef{Platform: "discord", Workspace: "700000000000000001", Channel: strconv.Itoa(900000000000000000 + i)})
	}
	from := knowledge.MustVersion("1.35")
	for _, ch := range subs {
		_, err := shared.SaveSubscription(ctx, digest.Subscription{Platform: ch.Platform, Workspace: ch.Workspace, Channel: ch.Channel,
			CreatedBy: "UADMIN", CreatedAt: time.Now(), Filter: digest.Filter{From: from, Schedule: digest.ScheduleRelease, Format: digest.FormatCompact}})
		if err != nil {
			t.Fatal(err)
		}
	}
	defer c.stopAll()
	for _, id := range []string{"r1", "r2", "r3"} {
		c.start(id)
	}

	kills := 0
	leaderKills := 0
	for round := range 2 {
		if mode == "follower" && round > 0 {
			break
		}
		waitUntil(t, 60*time.Second, func() bool { return fake.posts() >= (round+1)*len(subs)/5 }, c.logs)
		leader := c.leader(ctx)
		victim := leader
		if mode == "follower" {
			for id := range c.procs {
				if id != leader {
					victim = id
					break
				}
			}
		} else {
			leaderKills++
		}
		c.kill(victim)
		kills++
		c.start(victim)
	}

	var ds []digest.Delivery
	waitUntil(t, 120*time.Second, func() bool {
		ds, err = shared.ListDeliveries(ctx)
		if err != nil || len(ds) < len(subs) {
			return false
		}
		for _, d := range ds {
			if d.State != digest.DeliverySent && d.State != digest.DeliveryDead {
				return false
			}
		}
		return true
	}, c.logs)

	got, err := shared.ListSubscriptions(ctx)
	if err != nil || len(got) != len(subs) {
		t.Fatalf("%d subscriptions after the kills (%v); want all %d", len(got), err, len(subs))
	}
	shown := fake.snapshot()
	expected, delivered, doubled, inDoubt := 0, 0, 0, 0
	for _, d := range ds {
		if d.State != digest.DeliverySent {
			t.Errorf("delivery %s is %s (%s), want sent", d.Key, d.State, d.Reason)
			continue
		}
		if d.InDoubt > 0 {
			inDoubt++
		}
		for part := range d.Parts {
			expected++
			n := shown[d.Channel][d.Nonce(part)]
			switch {
			case n == 0:
				t.Errorf("%s %s: part %d of its digest never shown", d.Platform, d.Channel, part)
			case n == 1:
				delivered++
			case d.Platform == "slack" && d.InDoubt > 0 && fake.noHistory:
				delivered++
				doubled += n - 1
			default:
				delivered++
				doubled += n - 1
				t.Errorf("%s %s: part %d shown %d times (in doubt %d times); its log:\n%s", d.Platform, d.Channel, part, n, d.InDoubt, grepLines(c.logs(), d.Channel))
			}
		}
	}
	if doubled > 0 && !fake.noHistory {
		t.Errorf("%d messages doubled; with the history to look in, none may be; in doubt:\n%s", doubled, grepLines(c.logs(), "doubt"))
	}
	if doubled > leaderKills {
		t.Errorf("%d Slack messages doubled after %d leader kills; the bound is one per leader killed mid-post", doubled, leaderKills)
	}
	t.Logf("%s run: %d kills (%d of the leader); digests expected %d, delivered %d, doubled %d; %d deliveries found in doubt",
		mode, kills, leaderKills, expected, delivered, doubled, inDoubt)
}

// start runs replica id as a child process, with its own database and
// HTTP address; its log goes to a file in the run's folder.
func (c *chaosCluster) start(id string) {
	c.t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), chaosChild+"="+c.config,
		"BOT_DB="+filepath.Join(c.dir, id+".db"), "BOT_HTTP_ADDR="+freeAddr(c.t), "BOT_LOG_FORMAT=json",
		"BOT_REFRESH_INTERVAL=off", "BOT_REPLICA_ID="+id, "BOT_STORE_BACKEND=etcd", "BOT_ETCD_ENDPOINTS="+c.srv.Endpoint(),
		"BOT_ETCD_LEASE_TTL=1s", "SLACK_SIGNING_SECRET="+testSigningSecret, "SLACK_BOT_TOKEN=xoxb-1-chaos",
		"SLACK_API_URL="+c.api+"/slack/api/", "DISCORD_BOT_TOKEN=chaos-test-token", "DISCORD_API_URL="+c.api+"/discord")
	log, err := os.OpenFile(filepath.Join(c.dir, id+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		c.t.Fatal(err)
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	c.procs[id] = cmd
}

// kill SIGKILLs replica id and waits for it to be gone.
func (c *chaosCluster) kill(id string) {
	cmd := c.procs[id]
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	delete(c.procs, id)
}

// stopAll stops the replicas still running with SIGTERM.
func (c *chaosCluster) stopAll() {
	for id, cmd := range c.procs {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			c.t.Errorf("replica %s did not stop within 20 s of SIGTERM", id)
		}
	}
}

// leader returns the ID of the replica that leads now, waiting for one.
func (c *chaosCluster) leader(ctx context.Context) string {
	c.t.Helper()
	var id string
	waitUntil(c.t, 30*time.Second, func() bool {
		resp, err := c.cli.Get(ctx, etcdstore.DefaultPrefix+"election/", clientv3.WithPrefix(),
			clientv3.WithSort(clientv3.SortByCreateRevision, clientv3.SortAscend), clientv3.WithLimit(1))
		if err != nil || len(resp.Kvs) == 0 {
			return false
		}
		id = string(resp.Kvs[0].Value)
		_, running := c.procs[id]
		return running
	}, c.logs)
	return id
}

// logs returns the replicas' logs, for a failure message.
func (c *chaosCluster) logs() string {
	var b strings.Builder
	for _, id := range []string{"r1", "r2", "r3"} {
		raw, _ := os.ReadFile(filepath.Join(c.dir, id+".log"))
		fmt.Fprintf(&b, "--- %s\n%s", id, grepLines(string(raw), `"level":"`))
	}
	return b.String()
}

// waitUntil polls ok every 20 ms until it holds or d passes.
func waitUntil(t *testing.T, d time.Duration, ok func() bool, logs func() string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %s; replicas' logs:\n%s", d, logs())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
