//! Port lists shared between the blocks whose lists are equal: a joint's inputs and outputs
//! (with the hidden ports binding adds) are the same for every joint of one configuration, and a
//! 20,000-joint URDF chain kept 20,000 copies (about 600 bytes and five allocations a joint).
//!
//! A block makes its list as a vector ([`Cow::Owned`], pushed to while it is built and bound),
//! then hands it to [`share`], which replaces it with the one kept copy of an equal list. The
//! copies are kept for the process's life (leaked): there are few distinct lists (one per joint
//! kind and option set), and at most [`MAX_SHARED`] are kept, so a program that makes many
//! different lists keeps its own vectors past that.

use crate::block::PortDecl;
use std::borrow::Cow;
use std::sync::Mutex;

/// A block's port list: its own while it is made, then a shared copy.
pub(super) type PortList = Cow<'static, [PortDecl]>;

/// The most distinct lists kept: each is a few hundred bytes, kept until the process exits.
const MAX_SHARED: usize = 256;

/// The distinct lists kept so far.
static SHARED: Mutex<Vec<&'static [PortDecl]>> = Mutex::new(Vec::new());

/// Replaces `list` by the kept copy of an equal list, keeping a copy of it first if there is
/// none (up to [`MAX_SHARED`] lists; past that, or if another thread panicked while holding the
/// lists, `list` is only shrunk to its length). A list already shared is left as it is.
pub(super) fn share(list: &mut PortList) {
    let Cow::Owned(own) = list else {
        return;
    };
    let Ok(mut kept) = SHARED.lock() else {
        own.shrink_to_fit();
        return;
    };
    if let Some(&same) = kept.iter().find(|k| k[..] == own[..]) {
        *list = Cow::Borrowed(same);
    } else if kept.len() < MAX_SHARED {
        let copy: &'static [PortDecl] = Box::leak(std::mem::take(own).into_boxed_slice());
        kept.push(copy);
        *list = Cow::Borrowed(copy);
    } else {
        own.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Shape;

    /// Two equal lists end as one copy; a different list is kept apart; a shared list pushed to
    /// again is copied first (`Cow::to_mut`), so the other blocks' list is unchanged.
    #[test]
    fn equal_lists_share_one_copy() {
        let list = || vec![PortDecl::signal("share_test_q", Shape::SCALAR)];
        let (mut a, mut b): (PortList, PortList) = (Cow::Owned(list()), Cow::Owned(list()));
        let mut c: PortList = Cow::Owned(vec![PortDecl::signal("share_test_w", Shape::SCALAR)]);
        share(&mut a);
        share(&mut b);
        share(&mut c);
        assert!(matches!((&a, &b), (Cow::Borrowed(x), Cow::Borrowed(y)) if std::ptr::eq(*x, *y)));
        assert!(!std::ptr::eq(&a[0], &c[0]));
        a.to_mut()
            .push(PortDecl::signal("share_test_w", Shape::SCALAR));
        assert_eq!((a.len(), b.len()), (2, 1));
    }
}
