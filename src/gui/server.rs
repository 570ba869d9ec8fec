//! The server: it listens, hands each request to a small pool of workers (an event stream gets
//! a thread of its own for as long as its page listens), and on Ctrl-C ends every engine it
//! started. Also the launcher of the system's browser.

use super::http::{Answer, Ask, Guard, new_token, respond};
use super::hub::{Hub, MAX_PAGES};
use super::routes::route;
use crate::arbiter::engine::EngineSpec;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// Requests answered at once; more wait in the queue. A request waits at most for a game to end
/// its engines or for the referee's answer, so a few workers keep the page responsive.
const WORKERS: usize = 4;
/// Requests waiting for a worker; the listener waits when it is full.
const QUEUE: usize = 64;

/// What `tetrarch gui` was asked for.
pub struct GuiArgs {
    /// The address to listen on: 127.0.0.1 unless said otherwise.
    pub host: String,
    /// The port: any free one when 0.
    pub port: u16,
    /// Open the system's browser at the address.
    pub open: bool,
    /// Engines given on the command line, as `tetrarch match --engine` takes them.
    pub engines: Vec<String>,
}

/// Reads a request, checks who asks, and answers it. A panic (a bug) is answered as an error,
/// and the game and the analysis are stopped, since what the request left half done is unknown.
fn answer(hub: &Arc<Hub>, mut req: tiny_http::Request) {
    let ask = match Ask::read(&mut req) {
        Ok(a) => a,
        Err(e) => return respond(req, Answer::error(400, e)),
    };
    if let Err(a) = hub.guard.check(&ask) {
        return respond(req, a);
    }
    if ask.path == "/events" {
        return if ask.method == "GET" {
            hub.events(req)
        } else {
            respond(req, Answer::error(405, "/events takes GET"))
        };
    }
    let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route(hub, &ask))).unwrap_or_else(|_| {
        log::error!("gui: {} {} panicked; the game and the analysis are stopped", ask.method, ask.path);
        hub.recover();
        Answer::error(500, "internal error: the game at the table was stopped (please report this)")
    });
    respond(req, answer);
}

pub fn serve(args: &GuiArgs) -> Result<(), String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?.to_string_lossy().into_owned();
    let engines = args.engines.iter().map(|e| EngineSpec::parse(e)).collect::<Result<Vec<_>, _>>()?;
    let server = tiny_http::Server::http((args.host.as_str(), args.port))
        .map_err(|e| format!("gui: cannot listen on {}:{}: {}", args.host, args.port, e))?;
    let server = Arc::new(server);
    let addr = server.server_addr().to_ip().ok_or("gui: not listening on an IP address")?;
    let port = addr.port();
    let hosts = if addr.ip().is_loopback() {
        vec![
            format!("127.0.0.1:{}", port),
            format!("localhost:{}", port),
            format!("[::1]:{}", port),
            format!("{}:{}", args.host, port),
        ]
    } else {
        Vec::new()
    };
    let token = new_token();
    let shown_host = if addr.ip().is_unspecified() { "127.0.0.1".to_string() } else { args.host.clone() };
    let url = format!("http://{}:{}/?token={}", shown_host, port, token);
    let hub = Arc::new(Hub::new(Guard { token, hosts }, me, engines));
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "tetrarch gui: open {}", url);
        let _ = writeln!(out, "(Ctrl-C stops the server and every engine it started)");
        let _ = out.flush();
    }
    if args.open {
        open_browser(&url);
    }
    let stop = Arc::new(AtomicBool::new(false));
    {
        let (stop, server) = (Arc::clone(&stop), Arc::clone(&server));
        let _ = ctrlc::set_handler(move || {
            stop.store(true, Ordering::SeqCst);
            server.unblock();
        });
    }
    {
        let h = Arc::clone(&hub);
        std::thread::Builder::new()
            .name("gui-watchdog".into())
            .spawn(move || h.watchdog())
            .map_err(|e| e.to_string())?;
    }
    let (queue, work) = mpsc::sync_channel::<tiny_http::Request>(QUEUE);
    let work = Arc::new(Mutex::new(work));
    for k in 0..WORKERS {
        let (hub, work) = (Arc::clone(&hub), Arc::clone(&work));
        std::thread::Builder::new()
            .name(format!("gui-worker-{}", k))
            .spawn(move || {
                loop {
                    // The queue's lock is held only while waiting for the next request.
                    let next = super::hub::lock(&work).recv();
                    match next {
                        Ok(req) => answer(&hub, req),
                        Err(_) => return,
                    }
                }
            })
            .map_err(|e| e.to_string())?;
    }
    // Event streams last as long as their pages: each has a thread, and there are at most
    // `MAX_PAGES` of them (and a few more that are being refused).
    let streams = Arc::new(AtomicUsize::new(0));
    while !stop.load(Ordering::SeqCst) {
        let req = match server.recv() {
            Ok(r) => r,
            Err(e) => {
                if !stop.load(Ordering::SeqCst) {
                    log::warn!("gui: {}", e);
                }
                continue;
            }
        };
        if req.url().split('?').next() == Some("/events") {
            if streams.load(Ordering::SeqCst) >= MAX_PAGES + 8 {
                respond(req, Answer::error(429, format!("more than {} pages are open", MAX_PAGES)));
                continue;
            }
            streams.fetch_add(1, Ordering::SeqCst);
            let (hub, open) = (Arc::clone(&hub), Arc::clone(&streams));
            let spawned = std::thread::Builder::new().name("gui-events".into()).spawn(move || {
                answer(&hub, req);
                open.fetch_sub(1, Ordering::SeqCst);
            });
            if spawned.is_err() {
                streams.fetch_sub(1, Ordering::SeqCst);
                log::warn!("gui: cannot start an event stream");
            }
            continue;
        }
        if queue.send(req).is_err() {
            break;
        }
    }
    // Ctrl-C: the game and the analysis end, and every engine with them.
    let c = hub.control();
    hub.stop_game(&c);
    hub.stop_analysis(&c);
    crate::arbiter::engine::kill_all();
    Ok(())
}

fn open_browser(url: &str) {
    let tries: &[(&str, &[&str])] = if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else if cfg!(windows) {
        &[("cmd", &["/C", "start", ""])]
    } else {
        &[("xdg-open", &[]), ("sensible-browser", &[]), ("chromium", &[]), ("firefox", &[])]
    };
    for (cmd, args) in tries {
        let started = std::process::Command::new(cmd)
            .args(*args)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if let Ok(mut child) = started {
            // Reaped when it exits, so that it leaves no zombie behind.
            std::thread::spawn(move || child.wait());
            return;
        }
    }
    eprintln!("tetrarch gui: could not open a browser; open the address above yourself");
}
