//! The values behind a state's ids, for another process of a distributed
//! run: a state's words name values without a flat encoding by their
//! content ids ([`super::Interner`]), the same in every process, but a process
//! that has never computed a value cannot decode its id. The sender
//! writes each value with the first state it sends that refers to it;
//! the receiver registers it under the same id before it uses the state.

use super::{Codec, StateLayout};
use crate::frontends::b::value::{Elem, Symbolic, Value};
use std::cell::RefCell;
use std::sync::Arc;

impl StateLayout {
    /// Whether a state of this layout can refer to a value by id.
    pub fn refers_by_id(&self) -> bool {
        self.slots()
            .iter()
            .any(|s| s.codec == Codec::Interned || s.codec.has_escape_word())
    }

    /// Appends to `out` each value the packed state `packed` refers to by
    /// id, as its id and its content, for the ids `fresh` accepts.
    pub fn export_values(
        &self,
        packed: &[u64],
        fresh: &mut dyn FnMut(u64) -> bool,
        out: &mut Vec<u8>,
    ) {
        thread_local! {
            static WORDS: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
        }
        WORDS.with_borrow_mut(|words| {
            self.unpack(packed, words);
            for slot in self.slots() {
                let at = &words[slot.offset..];
                let id = match &slot.codec {
                    Codec::Interned => at[0],
                    codec => match codec.escape(at) {
                        Some(0) | None => continue,
                        Some(escape) => escape - 1,
                    },
                };
                if fresh(id) {
                    out.extend_from_slice(&id.to_le_bytes());
                    write_value(&self.interner.value(id), out);
                }
            }
        });
    }

    /// Registers the values [`StateLayout::export_values`] wrote, each
    /// under its id; refuses a value whose content does not give its id.
    pub fn import_values(&self, mut bytes: &[u8]) -> Result<(), String> {
        while !bytes.is_empty() {
            let id = take_u64(&mut bytes)?;
            let value = read_value(&mut bytes, 0)?;
            match self.interner.intern(&value) {
                Ok(got) if got == id => {}
                Ok(got) => return Err(format!("value of id {id:#x} has id {got:#x} here")),
                Err(_) => return Err(format!("value of id {id:#x} collides with another")),
            }
        }
        Ok(())
    }
}

/// Deepest nesting of a value read from another process.
const MAX_DEPTH: usize = 256;

fn write_value(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Int(n) => {
            out.push(0);
            out.extend_from_slice(&n.to_le_bytes());
        }
        Value::Bool(b) => out.extend_from_slice(&[1, *b as u8]),
        Value::Str(s) => {
            out.push(2);
            write_bytes(s.as_bytes(), out);
        }
        Value::Elem(e) => {
            out.push(3);
            out.extend_from_slice(&e.set.to_le_bytes());
            out.extend_from_slice(&e.index.to_le_bytes());
        }
        Value::Pair(p) => {
            out.push(4);
            write_value(&p.0, out);
            write_value(&p.1, out);
        }
        Value::Set(items) => {
            out.push(5);
            out.extend_from_slice(&(items.len() as u64).to_le_bytes());
            for item in items.iter() {
                write_value(item, out);
            }
        }
        Value::Symbolic(s) => {
            out.push(6);
            out.extend_from_slice(&s.def.to_le_bytes());
            write_bytes(s.text.as_bytes(), out);
        }
        Value::Big(b) => {
            out.push(7);
            write_bytes(&b.to_signed_bytes_le(), out);
        }
    }
}

fn write_bytes(bytes: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Result<&'a [u8], String> {
    if bytes.len() < n {
        return Err("a value is cut short".into());
    }
    let (head, tail) = bytes.split_at(n);
    *bytes = tail;
    Ok(head)
}

fn take_u64(bytes: &mut &[u8]) -> Result<u64, String> {
    Ok(u64::from_le_bytes(
        take(bytes, 8)?.try_into().expect("8 bytes"),
    ))
}

fn take_u32(bytes: &mut &[u8]) -> Result<u32, String> {
    Ok(u32::from_le_bytes(
        take(bytes, 4)?.try_into().expect("4 bytes"),
    ))
}

fn take_str(bytes: &mut &[u8]) -> Result<Arc<str>, String> {
    let len = usize::try_from(take_u64(bytes)?).map_err(|_| "a string too long".to_string())?;
    std::str::from_utf8(take(bytes, len)?)
        .map(Arc::from)
        .map_err(|_| "a string that is not UTF-8".into())
}

fn read_value(bytes: &mut &[u8], depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err("a value nested too deep".into());
    }
    Ok(match take(bytes, 1)?[0] {
        0 => Value::Int(take_u64(bytes)? as i64),
        1 => Value::Bool(take(bytes, 1)?[0] != 0),
        2 => Value::Str(take_str(bytes)?),
        3 => Value::Elem(Elem {
            set: take_u32(bytes)?,
            index: take_u32(bytes)?,
        }),
        4 => {
            let a = read_value(bytes, depth + 1)?;
            let b = read_value(bytes, depth + 1)?;
            Value::Pair(Arc::new((a, b)))
        }
        5 => {
            let len = take_u64(bytes)?;
            // Each element takes a byte at least: a length past the
            // message is refused before anything is allocated.
            if len > bytes.len() as u64 {
                return Err("a set longer than its message".into());
            }
            let items = (0..len)
                .map(|_| read_value(bytes, depth + 1))
                .collect::<Result<Vec<_>, _>>()?;
            Value::Set(Arc::from(items))
        }
        6 => Value::Symbolic(Arc::new(Symbolic {
            def: take_u32(bytes)?,
            text: take_str(bytes)?,
        })),
        7 => {
            let len = usize::try_from(take_u64(bytes)?).map_err(|_| "an integer too long")?;
            Value::integer(num_bigint::BigInt::from_signed_bytes_le(take(bytes, len)?))
        }
        tag => return Err(format!("unknown value tag {tag}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(n: i64) -> Value {
        Value::Int(n)
    }

    #[test]
    fn values_round_trip_with_their_ids() {
        let seq = Value::Set(Arc::from(vec![
            Value::Pair(Arc::new((int(1), Value::Str("a".into())))),
            Value::Pair(Arc::new((int(2), Value::Str("bé".into())))),
        ]));
        let values = [
            int(-5),
            Value::Bool(true),
            Value::Elem(Elem { set: 2, index: 7 }),
            seq,
            Value::Set(Arc::from(vec![int(3), int(1 << 40)])),
            Value::integer("-340282366920938463463374607431768211457".parse().unwrap()),
            Value::Symbolic(Arc::new(Symbolic {
                def: 4,
                text: "%x.(x : NATURAL | x * x)".into(),
            })),
        ];
        for v in &values {
            let mut out = Vec::new();
            write_value(v, &mut out);
            let mut bytes = &out[..];
            assert_eq!(&read_value(&mut bytes, 0).unwrap(), v);
            assert!(bytes.is_empty());
            // Every cut is refused, never a panic.
            for cut in 0..out.len() {
                let mut short = &out[..cut];
                assert!(read_value(&mut short, 0).is_err(), "{v:?} cut at {cut}");
            }
        }
    }
}
