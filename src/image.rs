//! The executable's image in memory: releasing the pages of its code and
//! read-only data that a phase of the run made resident, when the next
//! starts (`orbit check` does after parsing its command line and when the
//! search starts).
//!
//! The kernel maps a program's code and read-only data as it runs, 64 KiB
//! around each page touched (fault-around), and keeps them mapped until the
//! process exits: they count in its resident set (and its peak) whether or
//! not they run again. Parsing the command line, loading and compiling the
//! model and setting up the reductions run about twice as much code as the
//! search and the report after it (Peterson with 6 processes and canon at
//! two threads: 738 KB of functions before the search, 382 KB from its
//! start to the exit, under callgrind). [`release_read_only_pages`] unmaps
//! all of it; what runs next maps back, from the page cache and without
//! reading the file, only the pages it runs, which `scripts/hot-code.py`
//! lays out apart from the other phases' code.
//!
//! Only pages the file still backs are released: a page the process wrote
//! (a debugger's breakpoint, a uprobe) is a private copy, and releasing it
//! would lose the change, so such pages stay. So does every writable
//! segment, relocated read-only data (RELRO) included.

/// Size of a page: 4 KiB on x86-64, the only architecture that releases.
const PAGE: usize = 4096;

/// Releases the resident pages of the executable's read-only segments
/// (code and read-only data) that the file backs; what runs afterwards maps
/// its pages back. x86-64 Linux only (elsewhere a no-op: pages may be 16 or
/// 64 KiB there); failures leave the pages resident, which is harmless.
/// Never inlined: `scripts/hot-code.py` tells a phase's code from the next
/// phase's by this function's entries.
#[inline(never)]
pub fn release_read_only_pages() {
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    for (start, end) in read_only_segments() {
        release_file_pages(start, end);
    }
}

/// The page-aligned address ranges of the executable's loadable segments
/// that are neither writable nor relocated (RELRO).
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn read_only_segments() -> Vec<(usize, usize)> {
    /// Collects the ranges of the first object `dl_iterate_phdr` reports
    /// (the executable) into `data`, a `Vec<(usize, usize)>`.
    unsafe extern "C" fn collect(
        info: *mut libc::dl_phdr_info,
        _size: libc::size_t,
        data: *mut libc::c_void,
    ) -> libc::c_int {
        // SAFETY: `dl_iterate_phdr` passes a valid `dl_phdr_info` whose
        // `dlpi_phdr` points to `dlpi_phnum` program headers, and `data`
        // is the `Vec` that `read_only_segments` passed, borrowed
        // mutably for the call only.
        let (info, ranges) = unsafe { (&*info, &mut *data.cast::<Vec<(usize, usize)>>()) };
        let headers: &[libc::Elf64_Phdr] = if info.dlpi_phdr.is_null() {
            &[]
        } else {
            // SAFETY: see above.
            unsafe { std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum)) }
        };
        let base = info.dlpi_addr as usize;
        let span = |h: &libc::Elf64_Phdr, length: u64| {
            let start = base + h.p_vaddr as usize;
            (start, start + length as usize)
        };
        let relro = headers
            .iter()
            .find(|h| h.p_type == libc::PT_GNU_RELRO)
            .map(|h| span(h, h.p_memsz));
        for h in headers {
            if h.p_type != libc::PT_LOAD || h.p_flags & libc::PF_W != 0 {
                continue;
            }
            // Whole pages of the file's bytes only (not the zero fill).
            let (start, end) = span(h, h.p_filesz);
            let (start, mut end) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
            if let Some((low, high)) = relro
                && low < end
                && high > start
            {
                end = end.min(low / PAGE * PAGE);
            }
            if end > start {
                ranges.push((start, end));
            }
        }
        // The executable comes first: stop after it.
        1
    }
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    // SAFETY: `collect` only reads what `dl_iterate_phdr` passes it and
    // writes to `ranges`, which outlives the call.
    unsafe {
        libc::dl_iterate_phdr(Some(collect), (&raw mut ranges).cast());
    }
    ranges
}

/// Releases the pages of `[start, end)` (page-aligned, mapped from the
/// executable, never written by this program) that the file backs: runs
/// of them between the process's private copies, read from
/// `/proc/self/pagemap`.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn release_file_pages(start: usize, end: usize) {
    use std::os::unix::fs::FileExt;
    let pages = (end - start) / PAGE;
    let mut entries = vec![0u8; pages * 8];
    let read = std::fs::File::open("/proc/self/pagemap")
        .and_then(|f| f.read_exact_at(&mut entries, (start / PAGE * 8) as u64));
    if read.is_err() {
        return;
    }
    // Bit 63: present; bit 61: a file page (or shared anonymous). A page
    // present and not the file's is a private copy.
    let private: Vec<bool> = entries
        .chunks_exact(8)
        .map(|e| {
            let entry = u64::from_le_bytes([e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]]);
            entry >> 63 & 1 == 1 && entry >> 61 & 1 == 0
        })
        .collect();
    let private = |i: usize| private[i];
    let mut i = 0;
    while i < pages {
        if private(i) {
            i += 1;
            continue;
        }
        let first = i;
        while i < pages && !private(i) {
            i += 1;
        }
        let (address, length) = (start + first * PAGE, (i - first) * PAGE);
        // SAFETY: the range lies in a read-only mapping of the executable
        // whose pages here are the file's: `MADV_DONTNEED` only unmaps
        // them, and the next access maps the same bytes from the page
        // cache. No Rust object lives in these pages.
        unsafe {
            libc::madvise(address as *mut libc::c_void, length, libc::MADV_DONTNEED);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn the_code_runs_on_after_its_pages_are_released() {
        let segments = read_only_segments();
        // The code's segment (executable) is among them.
        let here = the_code_runs_on_after_its_pages_are_released as fn() as usize;
        assert!(segments.iter().any(|&(a, b)| a <= here && here < b));
        assert!(
            segments
                .iter()
                .all(|&(a, b)| a % PAGE == 0 && b % PAGE == 0 && a < b)
        );
        let code = segments
            .iter()
            .copied()
            .find(|&(a, b)| a <= here && here < b);
        let (start, end) = code.unwrap_or_default();
        let resident = present_pages(start, end);
        let before: u64 = (1..=1000).map(|i: u64| i * i).sum();
        release_read_only_pages();
        // Code and read-only data map back as they are used.
        let after: u64 = (1..=1000).map(|i: u64| i * i).sum();
        assert_eq!(before, after);
        assert_eq!(format!("{}", 333_833_500u64), after.to_string());
        // The test harness's code, which ran before, is no longer mapped.
        assert!(present_pages(start, end) < resident);
    }

    /// The pages of `[start, end)` mapped in this process.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    fn present_pages(start: usize, end: usize) -> usize {
        use std::os::unix::fs::FileExt;
        let mut entries = vec![0u8; (end - start) / PAGE * 8];
        let pagemap = std::fs::File::open("/proc/self/pagemap").unwrap();
        pagemap
            .read_exact_at(&mut entries, (start / PAGE * 8) as u64)
            .unwrap();
        entries.chunks_exact(8).filter(|e| e[7] & 0x80 != 0).count()
    }
}
