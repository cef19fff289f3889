// Command interactload loads a Discord interactions endpoint as Discord
// would: every request a new interaction (its own ID and user), signed
// with Ed25519 over X-Signature-Timestamp and the body. wrk cannot sign,
// and a replayed interaction is refused, so the requests are signed before
// the clock starts (on every core, while the server waits), then sent over
// -conns keep-alive connections, each waiting for its answer before the
// next. It prints requests/s, p50 and p99. -once sends one and prints the
// answer's body.
//
//	go run ./bench/interactload -url http://127.0.0.1:8080/discord/interactions -seed <64 hex> -kep 4639
package main

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	target := flag.String("url", "", "the interactions endpoint")
	seed := flag.String("seed", "", "the application's Ed25519 private key seed, 64 hex characters")
	kep := flag.String("kep", "4639", "ask /k8s kep NUMBER")
	conns := flag.Int("conns", 32, "connections")
	secs := flag.Duration("d", 5*time.Second, "how long to load")
	n := flag.Int("n", 150_000, "interactions to sign ahead (more than the server can answer in -d)")
	once := flag.Bool("once", false, "send one interaction and print the answer")
	pub := flag.Bool("pub", false, "print the public key of -seed and stop")
	flag.Parse()
	raw, err := hex.DecodeString(*seed)
	if err != nil || len(raw) != ed25519.SeedSize {
		log.Fatal("-seed: want 64 hex characters")
	}
	key := ed25519.NewKeyFromSeed(raw)
	if *pub {
		fmt.Printf("%x\n", key.Public())
		return
	}
	u, err := url.Parse(*target)
	if err != nil || u.Host == "" {
		log.Fatal("-url: want http://host:port/path")
	}
	run := strconv.FormatInt(time.Now().UnixNano(), 10)
	if *once {
		*n = 1
	}
	reqs := sign(key, u, run, *kep, *n)
	if *once {
		body, err := roundTrip(u.Host, reqs[0])
		if err != nil {
			log.Fatal(err)
		}
		os.Stdout.Write(body)
		return
	}
	load(u.Host, reqs, *conns, *secs)
}

// sign builds n signed requests on every core.
func sign(key ed25519.PrivateKey, u *url.URL, run, kep string, n int) [][]byte {
	reqs := make([][]byte, n)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				id := run + strconv.Itoa(i)
				body := fmt.Sprintf(`{"id":"%s","application_id":"1","type":2,"token":"t%s","version":1,"guild_id":"9","channel_id":"8",`+
					`"member":{"user":{"id":"%d","username":"u"}},"data":{"id":"5","name":"k8s","type":1,`+
					`"options":[{"name":"kep","type":1,"options":[{"name":"number","type":3,"value":"%s"}]}]}}`, id, id, 1000+i, kep)
				ts := strconv.FormatInt(time.Now().Unix(), 10)
				sig := ed25519.Sign(key, []byte(ts+body))
				reqs[i] = fmt.Appendf(nil, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"+
					"X-Signature-Ed25519: %x\r\nX-Signature-Timestamp: %s\r\n\r\n%s", u.RequestURI(), u.Host, len(body), sig, ts, body)
			}
		}()
	}
	wg.Wait()
	return reqs
}

// load sends reqs over conns connections for d, one at a time on each.
func load(host string, reqs [][]byte, conns int, d time.Duration) {
	var next atomic.Int64
	var fails atomic.Int64
	lat := make([][]time.Duration, conns)
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", host)
			if err != nil {
				log.Fatal(err)
			}
			defer conn.Close()
			br := bufio.NewReader(conn)
			for time.Now().Before(stop) {
				i := next.Add(1) - 1
				if int(i) >= len(reqs) {
					log.Printf("ran out of signed interactions after %d: raise -n", len(reqs))
					return
				}
				t := time.Now()
				if _, err := conn.Write(reqs[i]); err != nil {
					log.Fatal(err)
				}
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					log.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					fails.Add(1)
				}
				lat[c] = append(lat[c], time.Since(t))
			}
		}()
	}
	wg.Wait()
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) == 0 {
		log.Fatal("no answers")
	}
	q := func(p float64) time.Duration { return all[min(len(all)-1, int(float64(len(all))*p))] }
	fmt.Printf("requests: %d non-200: %d requests/s: %.0f p50: %.2fms p99: %.2fms\n", len(all), fails.Load(),
		float64(len(all))/d.Seconds(), ms(q(0.50)), ms(q(0.99)))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// roundTrip sends one request and returns the answer's body.
func roundTrip(host string, req []byte) ([]byte, error) {
	conn, err := net.Dial("tcp", host)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.Write(req); err != nil {
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("status %d: %s", resp.StatusCode, bytes.TrimSpace(body))
	}
	return body, err
}
