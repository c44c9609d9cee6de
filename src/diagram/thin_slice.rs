//! A boxed slice behind one pointer: [`ThinSlice`], the per-port lists of a compiled block.
//!
//! A `Box<[T]>` is a pointer and a length, 16 bytes in the value that holds it; a [`ThinSlice`]
//! keeps its length at the start of its allocation and is 8 bytes, and an empty one allocates
//! nothing. A compiled block has six per-port lists (slots, shapes, units, which outputs are
//! read), and a 20,000-joint URDF chain has 120,005 compiled blocks, 100,001 of them frame
//! blocks whose lists are all empty: 48 bytes a block, 5.8 MB of its diagram (issue 28, part 3).
//! It reads as a slice ([`Deref`]); it is made from a `Vec` and never grows.

// `MemoryLayout`: `Layout` is also the signal buffer's layout in this folder (`layout.rs`).
use std::alloc::{alloc, dealloc, handle_alloc_error, Layout as MemoryLayout};
use std::fmt;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// A fixed list of `T` behind one pointer: its length, then its elements, in one allocation;
/// nothing allocated when empty. Read and written as a slice.
pub struct ThinSlice<T> {
    /// The allocation (its first word the length, the elements after it at
    /// [`ThinSlice::layout`]'s offset), `None` when the list is empty.
    head: Option<NonNull<usize>>,
    /// The elements are owned (dropped with the list).
    owns: PhantomData<T>,
}

// SAFETY: a ThinSlice owns its elements as a `Box<[T]>` does; sending or sharing it sends or
// shares them.
unsafe impl<T: Send> Send for ThinSlice<T> {}
// SAFETY: as above; `&ThinSlice<T>` gives out only `&T`.
unsafe impl<T: Sync> Sync for ThinSlice<T> {}

impl<T> ThinSlice<T> {
    /// The empty list (no allocation).
    pub const fn new() -> Self {
        ThinSlice {
            head: None,
            owns: PhantomData,
        }
    }

    /// Where the elements start in the allocation: after the length, aligned for `T` (both
    /// alignments are powers of two, so the larger of a usize's size and T's alignment). The
    /// same for every length: reading an element costs no layout arithmetic (the engine reads a
    /// block's slots at every evaluation).
    const DATA_OFFSET: usize = if std::mem::align_of::<T>() > std::mem::size_of::<usize>() {
        std::mem::align_of::<T>()
    } else {
        std::mem::size_of::<usize>()
    };

    /// The layout of a list of `len` elements (its elements at [`Self::DATA_OFFSET`]).
    fn layout(len: usize) -> (MemoryLayout, usize) {
        let elements = MemoryLayout::array::<T>(len).expect("a list's size fits in memory");
        let (layout, offset) = MemoryLayout::new::<usize>()
            .extend(elements)
            .expect("a list's size fits in memory");
        debug_assert_eq!(offset, Self::DATA_OFFSET);
        (layout.pad_to_align(), offset)
    }

    /// The first element's address and the length; `None` for the empty list.
    #[inline]
    fn parts(&self) -> Option<(*mut T, usize)> {
        let head = self.head?;
        // SAFETY: `head` points at the length this list was made with (`From<Vec<T>>`,
        // `from_exact`), and the elements start at DATA_OFFSET within the same allocation.
        unsafe {
            let len = head.as_ptr().read();
            let data = head
                .as_ptr()
                .cast::<u8>()
                .add(Self::DATA_OFFSET)
                .cast::<T>();
            Some((data, len))
        }
    }
}

impl<T> Default for ThinSlice<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> From<Vec<T>> for ThinSlice<T> {
    /// The vector's elements moved into one allocation sized to them (none when it is empty).
    fn from(mut v: Vec<T>) -> Self {
        let len = v.len();
        if len == 0 {
            return Self::new();
        }
        let (layout, offset) = Self::layout(len);
        // SAFETY: the layout's size is at least a usize's, never zero. The length is written at
        // the start, which the layout aligns for a usize; the elements are moved (bitwise, then
        // the vector forgets them by its length set to 0) to the offset the layout aligns for T.
        unsafe {
            let raw = alloc(layout);
            let Some(head) = NonNull::new(raw.cast::<usize>()) else {
                handle_alloc_error(layout)
            };
            head.as_ptr().write(len);
            std::ptr::copy_nonoverlapping(v.as_ptr(), raw.add(offset).cast::<T>(), len);
            v.set_len(0);
            ThinSlice {
                head: Some(head),
                owns: PhantomData,
            }
        }
    }
}

impl<T> FromIterator<T> for ThinSlice<T> {
    /// Written straight into its allocation when the iterator tells its exact length (a `map`
    /// over a vector or a range: how the build makes its lists), through a `Vec` otherwise.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut iter = iter.into_iter();
        match iter.size_hint() {
            (0, Some(0)) => match iter.next() {
                None => Self::new(),
                Some(first) => Self::from(std::iter::once(first).chain(iter).collect::<Vec<T>>()),
            },
            (len, Some(upper)) if len == upper => Self::from_exact(&mut iter, len),
            _ => Self::from(iter.collect::<Vec<T>>()),
        }
    }
}

impl<T> ThinSlice<T> {
    /// The list of `iter`'s items, which said it has exactly `len > 0` of them. A size hint is
    /// not a promise: if it yields fewer or more, what it yielded is moved into a `Vec` and the
    /// list made from that. If it panics, the items taken so far and the allocation are leaked
    /// (never read or freed as a list).
    fn from_exact(iter: &mut impl Iterator<Item = T>, len: usize) -> Self {
        let (layout, offset) = Self::layout(len);
        // SAFETY: the layout's size is at least a usize's. Only the first `written` elements
        // are ever initialised; the list is made only once all `len` are, and otherwise they
        // are moved out (read once each) before the allocation is freed with its layout.
        unsafe {
            let raw = alloc(layout);
            let Some(head) = NonNull::new(raw.cast::<usize>()) else {
                handle_alloc_error(layout)
            };
            let data = raw.add(offset).cast::<T>();
            let mut written = 0;
            while written < len {
                let Some(item) = iter.next() else { break };
                data.add(written).write(item);
                written += 1;
            }
            if written == len {
                if let Some(extra) = iter.next() {
                    let mut all: Vec<T> = (0..len).map(|k| data.add(k).read()).collect();
                    dealloc(raw, layout);
                    all.push(extra);
                    all.extend(iter);
                    return Self::from(all);
                }
                head.as_ptr().write(len);
                return ThinSlice {
                    head: Some(head),
                    owns: PhantomData,
                };
            }
            let fewer: Vec<T> = (0..written).map(|k| data.add(k).read()).collect();
            dealloc(raw, layout);
            Self::from(fewer)
        }
    }
}

impl<T> Deref for ThinSlice<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        match self.parts() {
            // SAFETY: `len` initialised elements start at `data`, owned by this list and alive
            // as long as the borrow of it.
            Some((data, len)) => unsafe { std::slice::from_raw_parts(data, len) },
            None => &[],
        }
    }
}

impl<T> DerefMut for ThinSlice<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        match self.parts() {
            // SAFETY: as in `deref`, borrowed mutably through the list's only owner.
            Some((data, len)) => unsafe { std::slice::from_raw_parts_mut(data, len) },
            None => &mut [],
        }
    }
}

impl<T> Drop for ThinSlice<T> {
    fn drop(&mut self) {
        if let (Some(head), Some((data, len))) = (self.head, self.parts()) {
            let (layout, _) = Self::layout(len);
            // SAFETY: the `len` elements are initialised and dropped once, then the allocation
            // is freed with the layout it was made with.
            unsafe {
                std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(data, len));
                dealloc(head.as_ptr().cast::<u8>(), layout);
            }
        }
    }
}

impl<T: Clone> Clone for ThinSlice<T> {
    fn clone(&self) -> Self {
        Self::from(self.to_vec())
    }
}

impl<T: fmt::Debug> fmt::Debug for ThinSlice<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: PartialEq> PartialEq for ThinSlice<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<'a, T> IntoIterator for &'a ThinSlice<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::ThinSlice;
    use std::rc::Rc;

    /// One pointer wide (an empty list allocates nothing).
    #[test]
    fn a_thin_slice_is_one_pointer() {
        assert_eq!(
            std::mem::size_of::<ThinSlice<u64>>(),
            std::mem::size_of::<usize>()
        );
        assert_eq!(
            std::mem::size_of::<ThinSlice<String>>(),
            std::mem::size_of::<usize>()
        );
    }

    /// Reads back what it was made from, for elements of several sizes and alignments (a byte,
    /// a 16-byte-aligned value, a zero-sized one), empty and not.
    #[test]
    fn reads_back_its_elements() {
        let bools = vec![true, false, true];
        assert_eq!(&*ThinSlice::from(bools.clone()), &bools[..]);
        let wide: Vec<u128> = vec![1, u128::MAX, 3];
        assert_eq!(&*ThinSlice::from(wide.clone()), &wide[..]);
        let units: ThinSlice<()> = vec![(), ()].into();
        assert_eq!(units.len(), 2);
        let empty: ThinSlice<String> = Vec::new().into();
        assert!(empty.is_empty());
        let mut names: ThinSlice<String> = ["a", "bc"].iter().map(|s| s.to_string()).collect();
        names[1].push('d');
        assert_eq!(&*names, &["a".to_string(), "bcd".to_string()][..]);
        assert_eq!(names.clone(), names);
        assert_eq!(format!("{names:?}"), r#"["a", "bcd"]"#);
        assert_eq!((&names).into_iter().count(), 2);
    }

    /// An iterator whose size hint is wrong still gives every item it yields, once.
    #[test]
    fn a_wrong_size_hint_loses_nothing() {
        struct Lying(std::ops::Range<u32>, usize);
        impl Iterator for Lying {
            type Item = u32;
            fn next(&mut self) -> Option<u32> {
                self.0.next()
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.1, Some(self.1))
            }
        }
        let fewer: ThinSlice<u32> = Lying(0..2, 5).collect();
        assert_eq!(&*fewer, &[0, 1]);
        let more: ThinSlice<u32> = Lying(0..5, 2).collect();
        assert_eq!(&*more, &[0, 1, 2, 3, 4]);
        let exact: ThinSlice<u32> = Lying(0..3, 3).collect();
        assert_eq!(&*exact, &[0, 1, 2]);
        let none: ThinSlice<u32> = Lying(0..3, 0).collect();
        assert_eq!(&*none, &[0, 1, 2]);
    }

    /// Each element is dropped once, when the list is (and not when the vector it came from is).
    #[test]
    fn drops_each_element_once() {
        let counted = Rc::new(());
        let list: ThinSlice<Rc<()>> = vec![counted.clone(), counted.clone()].into();
        assert_eq!(Rc::strong_count(&counted), 3);
        let copy = list.clone();
        assert_eq!(Rc::strong_count(&counted), 5);
        drop(list);
        drop(copy);
        assert_eq!(Rc::strong_count(&counted), 1);
    }
}
