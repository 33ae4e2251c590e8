// A Go APNs sender written as backend teams write one with sideshow/apns2's transport (golang.org/x/net/http2,
// one client, a pool of goroutines each doing a blocking POST /3/device/<token>), after the gopeer anchor
// (shared/anchors/gopeer), with planted faults so that the simulator's report has known counts to show:
//
//	gosender URL TOTAL INFLIGHT     (BEARER in env; SSL_CERT_FILE the simulator's CA; http:// URLs are h2c)
//
// Push i (1...TOTAL) goes to token fmt.Sprintf("%064x", i) with a Live Activity update for the
// OrderChanges model, priority 10, topic TOPIC (default com.example.interop.push-type.liveactivity), except:
//   - i % BAD_PAYLOAD_EVERY == 1: a body that is not JSON (the simulator answers 400);
//   - i % BAD_TOPIC_EVERY == 2: topic com.example.other.push-type.liveactivity (another app's);
//   - i % UNDECODABLE_EVERY == 3: content-state without totalItems (APNs takes it; the device would not decode it).
// Each *_EVERY is 0 (never) unless set. It prints `ok=N bad=M` and each status's count.
package main

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
)

func every(name string) int64 { n, _ := strconv.ParseInt(os.Getenv(name), 10, 64); return n }

func main() {
	url, total, inflight := os.Args[1], atoi(os.Args[2]), atoi(os.Args[3])
	tr := &http2.Transport{TLSClientConfig: &tls.Config{}, StrictMaxConcurrentStreams: true}
	if strings.HasPrefix(url, "http://") {
		tr.AllowHTTP = true
		tr.DialTLS = func(network, addr string, _ *tls.Config) (net.Conn, error) { return net.Dial(network, addr) }
	}
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	topic := os.Getenv("TOPIC")
	if topic == "" {
		topic = "com.example.interop.push-type.liveactivity"
	}
	good := []byte(`{"aps":{"timestamp":1740500000,"event":"update","content-state":{"totalOrders":1,"lateOrders":0,"totalItems":2,"lastUpdated":1}}}`)
	undecodable := []byte(`{"aps":{"timestamp":1740500000,"event":"update","content-state":{"totalOrders":1,"lateOrders":0,"lastUpdated":1}}}`)
	notJSON := []byte(`{"aps":{"event":"update"`)
	badPayload, badTopic, undecodableEvery := every("BAD_PAYLOAD_EVERY"), every("BAD_TOPIC_EVERY"), every("UNDECODABLE_EVERY")
	bearer := "bearer " + os.Getenv("BEARER")
	var next, ok, bad int64
	var mu sync.Mutex
	statuses := map[string]int{}
	var wg sync.WaitGroup
	for w := 0; w < inflight; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := atomic.AddInt64(&next, 1)
				if i > int64(total) {
					return
				}
				body, t := good, topic
				if badPayload > 0 && i%badPayload == 1 {
					body = notJSON
				}
				if badTopic > 0 && i%badTopic == 2 {
					t = "com.example.other.push-type.liveactivity"
				}
				if undecodableEvery > 0 && i%undecodableEvery == 3 {
					body = undecodable
				}
				req, _ := http.NewRequest("POST", url+"/3/device/"+fmt.Sprintf("%064x", i), bytes.NewReader(body))
				req.Header.Set("authorization", bearer)
				req.Header.Set("apns-topic", t)
				req.Header.Set("apns-push-type", "liveactivity")
				req.Header.Set("apns-priority", "10")
				resp, err := client.Do(req)
				key := "error"
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					key = strconv.Itoa(resp.StatusCode)
				}
				if key == "200" {
					atomic.AddInt64(&ok, 1)
				} else {
					atomic.AddInt64(&bad, 1)
				}
				mu.Lock()
				statuses[key]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	keys := make([]string, 0, len(statuses))
	for k := range statuses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("ok=%d bad=%d", ok, bad)
	for _, k := range keys {
		fmt.Printf(" status_%s=%d", k, statuses[k])
	}
	fmt.Println()
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }
