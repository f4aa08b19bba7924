//! The message framing in front of `tower-lsp-server`: every incoming frame is checked before
//! the library sees it, because the library's reader stops for good at the first body that is
//! not JSON-RPC (tokio-util's `FramedRead` ends after a decode error). A bad frame is answered
//! here (ParseError or InvalidRequest) and the session goes on.
//!
//! Invariant: frames reach the server and the client whole and in order; the only responses
//! written here are those for frames the server never saw.

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tower_lsp_server::Server;

const PIPE_BYTES: usize = 1 << 20;

/// Reads one frame's body; `Ok(None)` at the end of the input; `Err` for broken headers
/// (the body, if any, was skipped).
async fn read_frame<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
) -> std::io::Result<Option<Result<Vec<u8>, String>>> {
    let mut content_length: Option<usize> = None;
    let mut n_header_lines = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await? == 0 {
            return Ok(None);
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if n_header_lines == 0 {
                continue;
            }
            break;
        }
        n_header_lines += 1;
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                content_length = value.trim().parse().ok();
            }
        }
    }
    let Some(len) = content_length else {
        return Ok(Some(Err("missing or invalid Content-Length header".into())));
    };
    let mut body = vec![0; len];
    reader.read_exact(&mut body).await?;
    Ok(Some(Ok(body)))
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_response(id: serde_json::Value, code: i64, message: String) -> Vec<u8> {
    let response = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    });
    serde_json::to_vec(&response).unwrap_or_default()
}

/// `Ok` when the body is a JSON-RPC message the library can decode; otherwise the response to
/// send instead.
fn check_body(body: &[u8]) -> Result<(), Vec<u8>> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|err| {
        error_response(
            serde_json::Value::Null,
            -32700,
            format!("Parse error: {err}"),
        )
    })?;
    let id = value.get("id").cloned().unwrap_or(serde_json::Value::Null);
    let valid_id = matches!(
        id,
        serde_json::Value::Null | serde_json::Value::Number(_) | serde_json::Value::String(_)
    );
    let is_request = value
        .get("method")
        .is_some_and(serde_json::Value::is_string);
    let is_response = value.get("id").is_some()
        && (value.get("result").is_some() || value.get("error").is_some());
    if value.get("jsonrpc").and_then(serde_json::Value::as_str) != Some("2.0")
        || !valid_id
        || !(is_request || is_response)
    {
        let id = if valid_id {
            id
        } else {
            serde_json::Value::Null
        };
        return Err(error_response(
            id,
            -32600,
            "Invalid request: not a JSON-RPC 2.0 message".into(),
        ));
    }
    Ok(())
}

/// Serves the language server over a byte stream pair (stdin/stdout, or in-process pipes).
pub async fn serve<I, O>(input: I, mut output: O)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (service, socket) = super::service();
    let (server_input, mut feed) = tokio::io::duplex(PIPE_BYTES);
    let (server_output, drain) = tokio::io::duplex(PIPE_BYTES);
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Vec<u8>>();

    // Client -> server: forward good frames, answer bad ones.
    let reject_tx = out_tx.clone();
    let reader = tokio::spawn(async move {
        let mut input = BufReader::new(input);
        loop {
            match read_frame(&mut input).await {
                Ok(None) | Err(_) => break,
                Ok(Some(Err(message))) => {
                    tracing::warn!("bad message header: {message}");
                    let body = error_response(serde_json::Value::Null, -32700, message);
                    let _ = reject_tx.send(frame(&body));
                }
                Ok(Some(Ok(body))) => match check_body(&body) {
                    Ok(()) => {
                        if feed.write_all(&frame(&body)).await.is_err() {
                            break;
                        }
                    }
                    Err(response) => {
                        tracing::warn!("rejected a malformed message");
                        let _ = reject_tx.send(frame(&response));
                    }
                },
            }
        }
        let _ = feed.shutdown().await;
    });

    // Server -> client: whole frames, interleaved with rejections.
    let relay = tokio::spawn(async move {
        let mut drain = BufReader::new(drain);
        while let Ok(Some(Ok(body))) = read_frame(&mut drain).await {
            if out_tx.send(frame(&body)).is_err() {
                break;
            }
        }
    });
    let writer = tokio::spawn(async move {
        while let Some(bytes) = out_rx.recv().await {
            if output.write_all(&bytes).await.is_err() {
                break;
            }
            let _ = output.flush().await;
        }
    });

    Server::new(server_input, server_output, socket)
        .serve(service)
        .await;
    // The server has exited: its output pipe is closed, so the relay ends; then flush.
    reader.abort();
    let _ = relay.await;
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), writer).await;
}

#[cfg(test)]
mod tests {
    use super::check_body;

    #[test]
    fn malformed_bodies_get_the_right_error() {
        assert!(check_body(br#"{"jsonrpc":"2.0","id":1,"method":"x"}"#).is_ok());
        assert!(check_body(br#"{"jsonrpc":"2.0","method":"exit"}"#).is_ok());
        assert!(check_body(br#"{"jsonrpc":"2.0","id":3,"result":null}"#).is_ok());
        let parse = String::from_utf8(check_body(b"{\"jsonrpc\":").unwrap_err()).unwrap();
        assert!(
            parse.contains("-32700") && parse.contains("\"id\":null"),
            "{parse}"
        );
        let invalid = String::from_utf8(check_body(br#"{"id":7,"foo":1}"#).unwrap_err()).unwrap();
        assert!(
            invalid.contains("-32600") && invalid.contains("\"id\":7"),
            "{invalid}"
        );
    }
}
